import { describe, expect, it } from 'vitest';
import { actionOutcome, Jar, redirectOf, requestEvent } from '../../../test/event.js';
import { MemoryAdapter } from '../adapters/memory.js';
import { appBase, routePathOf, type AppResolve } from './app-paths.js';
import { resolveConfig, type SvelteKitAuthConfig } from '../config.js';
import { matchesRequestPath, requireSession } from './guards.js';
import { SvelteKitAuth } from '../kit.js';
import type { MailMessage } from '../email/mail.js';
import { registerWithPassword, type RegisterAdapter } from '../passwords/accounts.js';
import Credentials from '../providers/credentials.js';
import Email from '../providers/email.js';
import GitHub from '../providers/github.js';

const secret = 's'.repeat(32);
const HTML = { accept: 'text/html' };

/** SvelteKit's `resolve` outside a request, or with `paths.relative: false`: `<base><path>`. */
const absolute = (base: string): AppResolve => ((path: string) => `${base}${path}`) as AppResolve;

/**
 * SvelteKit's server `resolve` during a request with `paths.relative` (its default): the path
 * relative to the page being rendered, as `$app/paths` computes it from the request's URL.
 */
const relativeTo = (base: string, url: string): AppResolve =>
	((path: string) => {
		const segments = new URL(url).pathname.slice(base.length).split('/').slice(2);
		return (segments.map(() => '..').join('/') || '.') + path;
	}) as AppResolve;

describe('appBase', () => {
	it.each([
		['no resolve (SvelteKit 2 before 2.26)', undefined, 'http://localhost/account', ''],
		['an empty base', absolute(''), 'http://localhost/account', ''],
		['an absolute answer', absolute('/base'), 'http://localhost/base/account', '/base'],
		['a relative answer at the top of the app', relativeTo('/base', 'http://localhost/base/signin'), 'http://localhost/base/signin', '/base'],
		['a relative answer three levels down', relativeTo('/base', 'http://localhost/base/a/b/c'), 'http://localhost/base/a/b/c', '/base'],
		['a relative answer at the app root', relativeTo('/base', 'http://localhost/base/'), 'http://localhost/base/', '/base'],
		['a nested base', relativeTo('/a/b', 'http://localhost/a/b/signin/email'), 'http://localhost/a/b/signin/email', '/a/b']
	])('is the app base for %s', (_, resolve, url, expected) => {
		expect(appBase(new URL(url), { resolve })).toBe(expected);
	});
});

/** The auth of an app served under `/base` (as the generated src/auth.ts sets it up), with these providers and config. */
function baseApp(extra: Partial<SvelteKitAuthConfig> = {}, base = '/base') {
	const adapter = MemoryAdapter();
	const mails: MailMessage[] = [];
	const links: string[] = [];
	const authorize = async (fields: Partial<Record<string, unknown>>) => (fields.password === 'right' ? { id: 'u1', email: 'ada@example.com' } : null);
	const config: SvelteKitAuthConfig = {
		secret,
		adapter,
		trustHost: true,
		logger: { error: () => {} },
		mailer: async (message) => void mails.push(message),
		providers: [
			Credentials({ credentials: { email: {}, password: {} }, authorize }),
			Email({ from: 'a@example.com', sendVerificationRequest: ({ url }) => void links.push(url) }),
			GitHub({ clientId: 'id', clientSecret: 'secret' })
		],
		...extra
	};
	return { auth: SvelteKitAuth(config, { resolve: absolute(base) }), adapter, mails, links };
}

/** A request that went through the auth handle. */
async function handled(auth: ReturnType<typeof SvelteKitAuth>, url: string, options: Parameters<typeof requestEvent>[2] = {}, jar = new Jar()) {
	const event = requestEvent(url, jar, options);
	await auth.handle({ event, resolve: async () => new Response('ok') });
	return event;
}

const signIn = (auth: ReturnType<typeof SvelteKitAuth>, form: Record<string, string>) =>
	actionOutcome(auth.signIn, requestEvent('http://localhost/base/signin', new Jar(), { form }));

describe('an app under paths.base', () => {
	it('sends a signed-out visitor to <base>/signin with the full path to come back to', async () => {
		const { auth } = baseApp();
		const event = await handled(auth, 'http://localhost/base/account/settings?tab=2', { headers: HTML });
		expect(await redirectOf(() => requireSession(event))).toEqual({ status: 303, location: '/base/signin?callbackUrl=%2Fbase%2Faccount%2Fsettings%3Ftab%3D2' });
	});

	it('builds the same redirect from the relative path resolve answers during a request', async () => {
		const url = 'http://localhost/base/account/settings';
		const auth = SvelteKitAuth({ secret, providers: [Credentials({ credentials: {}, authorize: () => null })] }, { resolve: relativeTo('/base', url) });
		const event = await handled(auth, url, { headers: HTML });
		expect(await redirectOf(() => requireSession(event))).toEqual({ status: 303, location: '/base/signin?callbackUrl=%2Fbase%2Faccount%2Fsettings' });
	});

	it('matches protected prefixes inside the base, and not paths outside it', async () => {
		const { auth } = baseApp();
		const under = await handled(auth, 'http://localhost/base/account/x');
		expect(matchesRequestPath(under, ['/account'])).toBe(true);
		expect(matchesRequestPath(await handled(auth, 'http://localhost/base/%61ccount'), ['/account'])).toBe(true);
		expect(matchesRequestPath(await handled(auth, 'http://localhost/base/public'), ['/account'])).toBe(false);
		expect(matchesRequestPath(await handled(auth, 'http://localhost/account'), ['/account'])).toBe(false);
	});

	it('sends a signed-in user to the base home by default, and to a callbackUrl inside the base', async () => {
		const { auth } = baseApp();
		expect(await signIn(auth, { providerId: 'credentials', email: 'ada@example.com', password: 'right' })).toEqual({ redirect: '/base/' });
		expect(await signIn(auth, { providerId: 'credentials', email: 'ada@example.com', password: 'right', redirectTo: '/base/account?tab=1' })).toEqual({
			redirect: '/base/account?tab=1'
		});
	});

	it.each([
		['a path outside the base', '/account'],
		['a sibling app on the same origin', '/other-app/'],
		['a path that only starts like the base', '/basement'],
		['dot segments out of the base', '/base/../evil'],
		['encoded dot segments out of the base', '/base/%2e%2e/evil'],
		['a protocol-relative URL', '//evil.example/base/'],
		['a backslash trick', '/base/\\/evil.example'],
		['another origin', 'https://evil.example/base/'],
		['a relative path', 'account']
	])('refuses %s as callbackUrl: the base home instead', async (_, target) => {
		const { auth } = baseApp();
		expect(await signIn(auth, { providerId: 'credentials', email: 'ada@example.com', password: 'right', redirectTo: target })).toEqual({ redirect: '/base/' });
	});

	it('ends a failed sign-in on <base>/signin with the error, keeping a callbackUrl inside the base only', async () => {
		const { auth } = baseApp();
		expect(await signIn(auth, { providerId: 'credentials', email: 'ada@example.com', password: 'wrong', redirectTo: '/base/account' })).toEqual({
			redirect: '/base/signin?error=CredentialsSignin&code=credentials&callbackUrl=%2Fbase%2Faccount'
		});
		expect(await signIn(auth, { providerId: 'credentials', email: 'ada@example.com', password: 'wrong', redirectTo: '/elsewhere' })).toEqual({
			redirect: '/base/signin?error=CredentialsSignin&code=credentials'
		});
	});

	it('signs out to the base home by default', async () => {
		const { auth } = baseApp();
		expect(await actionOutcome(auth.signOut, requestEvent('http://localhost/base/signout', new Jar(), { form: { redirectTo: '' } }))).toEqual({ redirect: '/base/' });
		expect(await actionOutcome(auth.signOut, requestEvent('http://localhost/base/signout', new Jar(), { form: { redirectTo: '/' } }))).toEqual({ redirect: '/base/' });
	});

	it('sends the OAuth provider a redirect_uri under the base, with the flow cookie scoped there', async () => {
		const { auth } = baseApp();
		const jar = new Jar();
		const outcome = await actionOutcome(auth.signIn, requestEvent('http://localhost/base/signin', jar, { form: { providerId: 'github' } }));
		const authorization = new URL(outcome.redirect!);
		expect(authorization.origin).toBe('https://github.com');
		expect(authorization.searchParams.get('redirect_uri')).toBe('http://localhost/base/auth/callback/github');
		expect(jar.writes.find((write) => write.name === 'auth.oauth-flow')?.options.path).toBe('/base/auth');
	});

	it('answers callbacks under the base only: a callback outside it goes on to the app', async () => {
		const { auth } = baseApp();
		const inside = requestEvent('http://localhost/base/auth/callback/github?code=x', new Jar());
		expect(await redirectOf(() => auth.handle({ event: inside, resolve: async () => new Response('app') }))).toEqual({
			status: 303,
			location: '/base/signin?error=InvalidCheck'
		});
		const outside = requestEvent('http://localhost/auth/callback/github?code=x', new Jar());
		expect(await (await auth.handle({ event: outside, resolve: async () => new Response('app') })).text()).toBe('app');
	});

	it('lists providers with the sign-in page and callback URL under the base', async () => {
		const { auth } = baseApp({ url: 'https://app.example' });
		const providers = await auth.getProviders(requestEvent('http://internal/base/signin', new Jar()));
		expect(providers.find((provider) => provider.id === 'github')).toMatchObject({ signinUrl: '/base/signin', callbackUrl: 'https://app.example/base/auth/callback/github' });
	});

	it('mails sign-in links to <base>/signin/email and shows <base>/signin/verify-request', async () => {
		const { auth, links } = baseApp();
		expect(await signIn(auth, { providerId: 'email', email: 'ada@example.com', redirectTo: '/base/account' })).toEqual({
			redirect: '/base/signin/verify-request?provider=email&type=email'
		});
		const link = new URL(links[0]!);
		expect(link.origin + link.pathname).toBe('http://localhost/base/signin/email');
		expect(link.searchParams.get('callbackUrl')).toBe('/base/account');
	});

	it('leaves a callbackUrl outside the base out of the emailed link', async () => {
		const { auth, links } = baseApp();
		await signIn(auth, { providerId: 'email', email: 'ada@example.com', redirectTo: '/elsewhere' });
		expect(new URL(links[0]!).searchParams.has('callbackUrl')).toBe(false);
	});

	it('mails password-reset links to <base>/signin/reset-password', async () => {
		const { auth, adapter, mails } = baseApp();
		await registerWithPassword(adapter as RegisterAdapter, { email: 'ada@example.com', password: 'the old password here' }, resolveConfig({ providers: [], secret: 's'.repeat(32) }));
		const outcome = await actionOutcome(auth.requestPasswordReset, requestEvent('http://localhost/base/signin/forgot-password', new Jar(), { form: { email: 'ada@example.com' } }));
		expect(outcome).toMatchObject({ status: 200, data: { sent: true } });
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(mails[0]?.text).toMatch(/http:\/\/localhost\/base\/signin\/reset-password\?token=/);
	});

	it('mails address confirmations to <base>/signin/verify-email', async () => {
		const { auth, mails } = baseApp({ passwords: { requireEmailVerification: true } });
		const outcome = await actionOutcome(auth.signUp, requestEvent('http://localhost/base/signup', new Jar(), { form: { email: 'new@example.com', password: 'long enough to pass', redirectTo: '/base/account' } }));
		expect(outcome).toMatchObject({ status: 200, data: { verificationSent: true } });
		const link = new URL(/http:\/\/\S+/.exec(mails[0]!.text)![0]);
		expect(link.origin + link.pathname).toBe('http://localhost/base/signin/verify-email');
		expect(link.searchParams.get('callbackUrl')).toBe('/base/account');
	});
});

describe('routePathOf', () => {
	it.each([
		['/account', '/account'],
		['/', '/'],
		['/(app)/account/[id]', '/account/[id]'],
		['/[[lang]]/signin', '/signin'],
		['/(marketing)', '/'],
		['/[[lang=locale]]/(auth)/signup', '/signup'],
		['/blog/[...rest]', '/blog/[...rest]']
	])('%s is the path %s', (id, path) => {
		expect(routePathOf({ id })).toBe(path);
	});

	it('is undefined when no route matched', () => {
		expect(routePathOf({ id: null })).toBeUndefined();
		expect(routePathOf(undefined)).toBeUndefined();
	});
});
