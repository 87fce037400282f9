import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn, signOut } from './client.js';

interface FakeElement {
	tag: string;
	children: FakeElement[];
	submitted: boolean;
	[key: string]: unknown;
}

/** A document just big enough for the form builder: records what it builds and submits. */
function fakeDocument() {
	const appended: FakeElement[] = [];
	const createElement = (tag: string): FakeElement => {
		const element: FakeElement = { tag, children: [], submitted: false };
		element.append = (child: FakeElement) => element.children.push(child);
		element.submit = () => (element.submitted = true);
		return element;
	};
	vi.stubGlobal('document', { createElement, body: { append: (el: FakeElement) => appended.push(el) } });
	return () => {
		expect(appended).toHaveLength(1);
		const form = appended[0]!;
		const fields = Object.fromEntries(form.children.map((input) => [input.name, input.value]));
		expect(form.children.every((input) => input.tag === 'input' && input.type === 'hidden')).toBe(true);
		return { method: form.method, action: form.action, submitted: form.submitted, fields };
	};
}

afterEach(() => vi.unstubAllGlobals());

describe('client signIn', () => {
	it('posts the provider id and credential fields to /signin and submits the form', () => {
		const submitted = fakeDocument();
		signIn('credentials', { email: 'a@example.com', password: 'hunter22!', redirectTo: '/account' });
		expect(submitted()).toEqual({
			method: 'POST',
			action: '/signin',
			submitted: true,
			fields: { email: 'a@example.com', password: 'hunter22!', redirectTo: '/account', providerId: 'credentials' }
		});
	});

	it('posts to a custom sign-in page and does not send the page itself as a field', () => {
		const submitted = fakeDocument();
		signIn('idp', { signInPage: '/login' });
		expect(submitted()).toMatchObject({ action: '/login', fields: { providerId: 'idp' } });
	});

	it('does not let an option override the provider id', () => {
		const submitted = fakeDocument();
		signIn('credentials', { providerId: 'other' });
		expect(submitted().fields.providerId).toBe('credentials');
	});
});

describe('client signOut', () => {
	it('posts to /signout with no fields by default', () => {
		const submitted = fakeDocument();
		signOut();
		expect(submitted()).toEqual({ method: 'POST', action: '/signout', submitted: true, fields: {} });
	});

	it('posts redirectTo to a custom sign-out page', () => {
		const submitted = fakeDocument();
		signOut({ signOutPage: '/logout', redirectTo: '/bye' });
		expect(submitted()).toMatchObject({ action: '/logout', fields: { redirectTo: '/bye' } });
	});
});
