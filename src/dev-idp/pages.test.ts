import { describe, expect, it } from 'vitest';
import { readAlert, readForm } from './html.js';
import { errorPage, loginPage } from './pages.js';

const content = { action: '/interaction/abc', clientId: 'create-auth-dev', email: 'dev@example.com', password: 'password' };

describe('loginPage', () => {
	it('is a form posting email and password to the interaction, under the dev IdP heading and note', () => {
		const html = loginPage(content);
		expect(html).toContain('<h1>create-auth dev IdP</h1>');
		expect(html).toContain('<p class="note">Local development only</p>');
		expect(html).toContain('<form method="post" action="/interaction/abc">');
		expect(readForm(html)?.fields.toString()).toBe('email=dev%40example.com&password=password');
		expect(readAlert(html)).toBeUndefined();
		expect(html).not.toContain('tenant');
	});

	it('escapes every value it shows', () => {
		const hostile = '"><script>alert(1)</script>';
		const html = loginPage({ action: hostile, clientId: hostile, tenantId: hostile, email: hostile, password: hostile, error: hostile });
		expect(html).not.toContain('<script>');
		expect(html.match(/&quot;&gt;&lt;script&gt;/g)).toHaveLength(6);
		expect(readForm(html)).toEqual({ action: hostile, fields: new URLSearchParams({ email: hostile, password: hostile }) });
		expect(readAlert(html)).toBe(hostile);
	});
});

describe('errorPage', () => {
	it('shows the OAuth error and its description as an alert, escaped', () => {
		const html = errorPage('invalid_request', 'bad <value>');
		expect(html).toContain('<h1>create-auth dev IdP</h1>');
		expect(html).toContain('role="alert">invalid_request: bad &lt;value&gt;</p>');
		expect(readAlert(errorPage('server_error'))).toBe('server_error');
	});
});
