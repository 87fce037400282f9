/**
 * Guards that do not depend on the URL, and the sign-in rate limit, in a SvelteKit 3 app set up
 * by `create-auth --yes`: {@link prepareGuards} adds what a user would (SvelteKit's
 * `experimental.remoteFunctions`, a remote function under `/account` and a `+server.ts`
 * endpoint, both guarded with `requireUser()`, and a 60 s sign-in window in `src/auth.ts`);
 * {@link guardsFlows} drives them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { credentialsForm, PASSWORD, signInResponse, signUpAt, type CredentialsApp } from './credentials-flow.js';
import { postForm } from './lockout-flow.js';

/**
 * The sign-in window the app is given, in seconds: long enough for 10 attempts over HTTP and two
 * in the browser on a loaded machine.
 */
const WINDOW = 60;

const FILES: Record<string, string> = {
	'src/routes/account/whoami.remote.ts': `import { command } from '$app/server';
import { requireUser } from '#lib/server/auth/index.js';

/** The signed-in user's email; a signed-out caller gets a 401. */
export const whoAmI = command(async () => (await requireUser()).email ?? '');
`,
	'src/routes/whoami/+page.svelte': `<script lang="ts">
	import { whoAmI } from '../account/whoami.remote';

	let answer = $state('');

	async function ask() {
		try {
			answer = await whoAmI();
		} catch (err) {
			answer = \`error \${(err as { status?: number }).status}\`;
		}
	}
</script>

<button onclick={ask}>Who am I?</button>
<p data-testid="answer">{answer}</p>
`,
	'src/routes/api/me/+server.ts': `import { json } from '@sveltejs/kit';
import { requireUser } from '#lib/server/auth/index.js';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async (event) => json(await requireUser(event));
`
};

/** Edits a file of the app, checking that `from` is there. */
async function edit(appDir: string, file: string, from: string, to: string) {
	const target = path.join(appDir, file);
	const text = await fs.readFile(target, 'utf8');
	if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
	await fs.writeFile(target, text.replace(from, to));
}

/** Adds the remote function, the endpoint and the page that calls the function; turns remote functions on; shortens the window. */
export async function prepareGuards(appDir: string): Promise<void> {
	for (const [file, content] of Object.entries(FILES)) {
		await fs.mkdir(path.dirname(path.join(appDir, file)), { recursive: true });
		await fs.writeFile(path.join(appDir, file), content);
	}
	await edit(appDir, 'vite.config.ts', 'adapter: adapter()', 'adapter: adapter(),\n\t\t\texperimental: { remoteFunctions: true }');
	await edit(appDir, 'src/auth.ts', "session: { strategy: 'jwt' },", `session: { strategy: 'jwt' },\n\t\trateLimit: { signIn: { perEmail: { max: 10, windowSeconds: ${WINDOW} } } },`);
}

/**
 * Registers the flows as tests of the enclosing `describe`; the app must have been through {@link prepareGuards}.
 * @returns `afterWindow()`, which registers where it is called the test that signs the limited
 *   address in once the window is over: it moves the server's clock past what is left of the
 *   window (in seconds of Retry-After), nothing when the tests in between moved it further. It must
 *   be called, at most once, in the same `describe`, before the app's server is replaced.
 */
export function guardsFlows(app: () => Pick<CredentialsApp, 'server' | 'browser'>): { afterWindow(): void } {
	const email = 'limited@example.com';
	/** When the limit test saw the window end on the server's clock (ms since the epoch, from Retry-After); undefined until it ran. */
	let windowOver: number | undefined;

	it('answers a remote function under /account with 401 signed out, and with the user signed in', async () => {
		const { server, browser } = app();
		const context = await browser.newContext();
		const page = await context.newPage();
		const ask = async () => {
			await page.goto(`${server.url}/whoami`);
			await page.waitForLoadState('networkidle'); // hydrated: the button has its handler
			const call = page.waitForResponse((response) => response.url().includes('/_app/remote/'));
			await page.getByRole('button', { name: 'Who am I?' }).click();
			return (await call).json();
		};
		// SvelteKit answers a remote call with its result or error in the body.
		expect(await ask()).toEqual({ type: 'error', error: { status: 401, message: 'Sign in to continue.' } });
		await expect.poll(() => page.getByTestId('answer').textContent()).toBe('error 401');

		await signUpAt(page, server.url, 'remote@example.com');
		expect(await ask()).toMatchObject({ type: 'result' });
		await expect.poll(() => page.getByTestId('answer').textContent()).toBe('remote@example.com');

		const endpoint = await context.request.get(`${server.url}/api/me`);
		expect(endpoint.status()).toBe(200);
		expect(await endpoint.json()).toMatchObject({ email: 'remote@example.com' });
		await context.close();
	});

	it('answers a +server.ts endpoint guarded with requireUser() with 401 JSON when signed out', async () => {
		const response = await fetch(`${app().server.url}/api/me`);
		expect(response.status).toBe(401);
		expect(await response.json()).toMatchObject({ message: 'Sign in to continue.' });
	});

	it('shows the limit message at the 11th wrong password for one email (429, Retry-After), the right password refused too', async () => {
		const { server, browser } = app();
		const context = await browser.newContext();
		const page = await context.newPage();
		await signUpAt(page, server.url, email);
		await context.clearCookies();

		const attempt = (password: string) => signInResponse(page, server.url, email, password);
		// The first ten over HTTP, from the browser's client address (the page's answer to a wrong
		// password is the credentials flows'); the 11th on the page.
		for (let i = 1; i <= 10; i++) {
			const answer = await postForm(`${server.url}/signin`, { providerId: 'credentials', email, password: 'not the password' }, '127.0.0.1');
			expect(answer).toMatchObject({ status: 303, location: '/signin?error=CredentialsSignin&code=credentials' });
		}
		const limited = await attempt('not the password');
		expect(limited.status()).toBe(429);
		const retryAfter = Number(limited.headers()['retry-after']);
		expect(retryAfter).toBeGreaterThan(0);
		expect(retryAfter).toBeLessThanOrEqual(WINDOW);
		const over = server.now() + (retryAfter + 1) * 1000;
		await expect.poll(() => page.getByRole('alert').textContent()).toBe('Too many attempts. Try again in 1 minute.');
		expect(await credentialsForm(page).getByLabel('Email').inputValue()).toBe(email);
		// The right password too, until the window is over.
		expect((await attempt(PASSWORD)).status()).toBe(429);
		windowOver = over;
		await context.close();
	});

	return {
		afterWindow() {
			it('signs the limited address in with the right password once the sign-in window is over', async (context) => {
				if (windowOver === undefined) context.skip(); // the limit test did not get that far
				const { server, browser } = app();
				const page = await (await browser.newContext()).newPage();
				await server.advanceClock!(Math.max(0, windowOver! - server.now()) / 1000);
				expect((await signInResponse(page, server.url, email, PASSWORD)).status()).toBe(303);
				await page.waitForURL((url) => url.pathname === '/');
				await page.context().close();
			});
		}
	};
}
