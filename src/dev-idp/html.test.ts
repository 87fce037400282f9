import { describe, expect, it } from 'vitest';
import { escapeHtml, readAlert, readForm, unescapeHtml } from './html.js';

describe('escapeHtml / unescapeHtml', () => {
	it('escapes the five characters that matter in content and quoted attributes, and back', () => {
		const text = `<a href="x">Tom & 'Jerry'</a>`;
		expect(escapeHtml(text)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;');
		expect(unescapeHtml(escapeHtml(text))).toBe(text);
	});

	it('decodes each entity once: &amp;lt; is the text "&lt;"', () => {
		expect(unescapeHtml('&amp;lt;')).toBe('&lt;');
	});
});

describe('readForm', () => {
	it('reads the first form: action as written, named inputs in order, values unescaped', () => {
		const html = `<p>x</p><form method="post" action="/cb?a=1&amp;b=2">
<input type="hidden" name="code" value="a&quot;b"/>
<label>Email <input value="dev@example.com" name="email" required></label>
<input type="submit">
<button type="submit">Go</button>
</form><form action="/other"><input name="no" value="no"></form>`;
		const form = readForm(html)!;
		expect(form.action).toBe('/cb?a=1&b=2');
		expect([...form.fields]).toEqual([
			['code', 'a"b'],
			['email', 'dev@example.com']
		]);
	});

	it('is undefined without a form or without an action', () => {
		expect(readForm('<p>nothing</p>')).toBeUndefined();
		expect(readForm('<form method="post"><input name="a" value="b"></form>')).toBeUndefined();
	});
});

describe('readAlert', () => {
	it('reads the text of the role="alert" element, unescaped and trimmed', () => {
		expect(readAlert('<main><p class="error" role="alert"> Wrong &amp; bad. </p></main>')).toBe('Wrong & bad.');
		expect(readAlert('<p>fine</p>')).toBeUndefined();
	});
});
