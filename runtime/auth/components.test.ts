import { readFileSync } from 'node:fs';
import { createRawSnippet } from 'svelte';
import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import AuthCard from './AuthCard.svelte';
import SignIn from './SignIn.svelte';
import SignOut from './SignOut.svelte';

const snippet = (html: string) => createRawSnippet(() => ({ render: () => html }));

/** The rendered markup without Svelte's hydration comments and whitespace between tags. */
const html = (body: string) => body.replace(/<!--[^>]*-->/g, '').replace(/>\s+</g, '><');

describe('<SignIn>', () => {
	it('renders a plain POST form to /signin with empty hidden fields and a default submit button', () => {
		const { body } = render(SignIn, { props: {} });
		expect(html(body)).toBe(
			'<form method="POST" action="/signin"><input type="hidden" name="providerId" value=""/><input type="hidden" name="redirectTo" value=""/><button type="submit">Sign in</button></form>'
		);
	});

	it('fills the hidden providerId and redirectTo fields when given', () => {
		const { body } = render(SignIn, { props: { provider: 'idp', redirectTo: '/account' } });
		expect(html(body)).toContain('<input type="hidden" name="providerId" value="idp"/>');
		expect(html(body)).toContain('<input type="hidden" name="redirectTo" value="/account"/>');
	});

	it('posts to an overridden sign-in page', () => {
		const { body } = render(SignIn, { props: { signInPage: '/login' } });
		expect(body).toContain('action="/login"');
	});

	it('renders credential inputs from children before the submit button', () => {
		const children = snippet('<label>Email <input name="email" type="email"/></label>');
		const { body } = render(SignIn, { props: { provider: 'credentials', children } });
		expect(html(body)).toMatch(/<label>Email <input name="email" type="email"\/><\/label><button type="submit">Sign in<\/button>/);
	});

	it('replaces the default button with the submitButton snippet', () => {
		const { body } = render(SignIn, { props: { submitButton: snippet('<button class="cta">Go</button>') } });
		expect(body).toContain('<button class="cta">Go</button>');
		expect(body).not.toContain('Sign in');
	});

	it('escapes attribute values', () => {
		const { body } = render(SignIn, { props: { redirectTo: '/"><script>' } });
		expect(body).not.toContain('"><script>');
	});
});

describe('<SignOut>', () => {
	it('renders a plain POST form to /signout with a default submit button', () => {
		const { body } = render(SignOut, { props: {} });
		expect(html(body)).toBe(
			'<form method="POST" action="/signout"><input type="hidden" name="redirectTo" value=""/><button type="submit">Sign out</button></form>'
		);
	});

	it('adds redirectTo, an overridden page and a custom button', () => {
		const submitButton = snippet('<button>Leave</button>');
		const { body } = render(SignOut, { props: { signOutPage: '/logout', redirectTo: '/bye', submitButton } });
		expect(html(body)).toBe(
			'<form method="POST" action="/logout"><input type="hidden" name="redirectTo" value="/bye"/><button>Leave</button></form>'
		);
	});
});

describe('<AuthCard>', () => {
	it('wraps the page in one card, form-wide by default and wide when asked', () => {
		const narrow = html(render(AuthCard, { props: { children: snippet('<h1>Sign in</h1>') } }).body);
		expect(narrow).toMatch(/^<div class="auth-card svelte-\w+"><h1>Sign in<\/h1><\/div>$/);
		const wide = html(render(AuthCard, { props: { children: snippet('<h1>Your account</h1>'), wide: true } }).body);
		expect(wide).toMatch(/^<div class="auth-card svelte-\w+ wide"><h1>Your account<\/h1><\/div>$/);
	});

	it('takes no background, text colour or font of its own, and mixes its colours from the text colour', () => {
		const source = readFileSync(new URL('./AuthCard.svelte', import.meta.url), 'utf8');
		const style = source.slice(source.indexOf('<style>'));
		expect(style).not.toMatch(/(^|\s)(background|color|font-family|color-scheme|box-shadow):/m);
		expect(style).not.toContain('prefers-color-scheme');
		expect(style).toContain('--border: color-mix(in srgb, currentColor');
	});
});
