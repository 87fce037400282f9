/**
 * SvelteKit 3 apps, as the `sv` 1.0 line creates them (TypeScript and JSDoc), under Node 22:
 * `create-auth --yes`, then the same flows as the SvelteKit 2 app (./credentials-flow.ts). Both
 * apps get every provider (svelte-check sees them all, in TypeScript and in JavaScript with
 * JSDoc types; the OAuth ones' .env keys stay empty), the idp flows against the dev IdP
 * (./idp-flow.ts), the email-link flows against a local SMTP server (./email-flow.ts) and the
 * defence flows over HTTP (./defence-flow.ts: cross-site POSTs refused, auth-page headers). The
 * TypeScript app also goes through the passkey flows (./passkey-flow.ts), its passkeys' relying
 * party set to localhost in its src/auth.ts, since its AUTH_URL is 127.0.0.1 for the dev IdP, and
 * the account pre-hijacking flows (./pre-hijacking-flow.ts; its idp provider allows linking by
 * email in src/auth.ts, for the classic-federated merge).
 * The TypeScript app's install is the CLI's own; the JSDoc app ends up with the
 * same dependencies and shares it (no second better-sqlite3 compile). The TypeScript app also
 * gets a remote function and an endpoint guarded with requireUser(), and the sign-in rate limit
 * is driven there (./guards-flow.ts); last, it is built again with `passwords:
 * { requireEmailVerification: true }` in its src/auth.ts (./email-verification-flow.ts).
 * A third copy of kit3-ts, served under `paths.base` `/base` and sharing the first install, goes
 * through the base-path flows (./base-path-flow.ts) and svelte-check.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInbox, type Inbox } from '../runtime/test/smtp.js';
import { basePathFlows, useBasePath } from './base-path-flow.js';
import { credentialsFlows, PASSWORD } from './credentials-flow.js';
import { defenceFlows } from './defence-flow.js';
import { emailFlows, useInbox } from './email-flow.js';
import { emailVerificationFlows, requireEmailVerification } from './email-verification-flow.js';
import { guardsFlows, prepareGuards } from './guards-flow.js';
import { build, check, copyFixture, removeApp, runCli, shareInstall, start, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { sqliteCount } from './harness/databases.js';
import { node22, type NodeToolchain } from './harness/node.js';
import { idpFlows, startIdpFor, type AppIdp } from './idp-flow.js';
import { postForm } from './lockout-flow.js';
import { expectJsdocFiles } from './jsdoc-files.js';
import { passkeyFlows, passkeysOnLocalhost } from './passkey-flow.js';
import { passwordFlows } from './password-flow.js';
import { allowEmailLinking, federatedMergeFlows, preHijackingFlows } from './pre-hijacking-flow.js';

let toolchain: NodeToolchain;
let inbox: Inbox;
const apps: string[] = [];

beforeAll(async () => {
	toolchain = await node22();
	inbox = await startInbox();
});

afterAll(async () => {
	for (const app of apps) await removeApp(app);
	await inbox?.close();
});

/** The CLI as a user on Node 22 runs it: the same binary, Node 22 first on PATH. */
const createAuth = (appDir: string, args: string[]) => runCli(appDir, args, { node: toolchain.node, env: toolchain.env });

const ALL_PROVIDERS = 'credentials,email,passkey,idp,social,github,google,oidc';

for (const { fixture, tsconfig, providers, ext } of [
	{ fixture: 'kit3-ts', tsconfig: './tsconfig.json', providers: ALL_PROVIDERS, ext: 'ts' },
	{ fixture: 'kit3-jsdoc', tsconfig: './jsconfig.json', providers: ALL_PROVIDERS, ext: 'js' }
]) {
	describe(`${providers} sign-in in a SvelteKit 3 app (${fixture})`, () => {
		let appDir: string;
		let server: Server | undefined;
		let browser: Browser | undefined;
		let idp: AppIdp | undefined;
		let cli: Awaited<ReturnType<typeof runCli>>;

		beforeAll(async () => {
			appDir = await copyFixture(fixture);
			apps.push(appDir);
			const installed = apps.length > 1 ? apps[0] : undefined;
			cli = await createAuth(appDir, ['--yes', '--providers', providers, ...(installed ? ['--no-install'] : [])]);
			if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
			if (installed) await shareInstall(installed, appDir);
			if (ext === 'ts') await prepareGuards(appDir);
			if (providers.includes('idp')) idp = await startIdpFor(appDir);
			if (ext === 'ts' && idp) await passkeysOnLocalhost(appDir, ext, idp.port);
			if (ext === 'ts' && idp) await allowEmailLinking(appDir, ext);
			await useInbox(appDir, inbox);
			await build(appDir, { env: toolchain.env });
			server = await start(appDir, { mode: 'preview', env: toolchain.env, port: idp?.port });
			browser = await launchBrowser();
		});

		afterAll(async () => {
			await browser?.close();
			await server?.stop();
			await idp?.idp.stop();
		});

		it('writes SvelteKit 3 code: #lib imports, explicit environment variables, hook types from @sveltejs/kit/hooks', async () => {
			const read = (file: string) => fs.readFile(path.join(appDir, file), 'utf8');
			const auth = await read(`src/auth.${ext}`);
			expect(auth).toContain("import { building, dev } from '$app/env';");
			expect(auth).toMatch(/^import \{ (refreshAccessToken, )?SvelteKitAuth \} from '#lib\/server\/auth\/index\.js';$/m);
			expect(await read(`src/authorization.${ext}`)).toContain(
				ext === 'ts' ? "import type { Handle } from '@sveltejs/kit/hooks';" : "@type {import('@sveltejs/kit/hooks').Handle}"
			);
			const envModule = await read(`src/env.${ext}`);
			for (const name of ['AUTH_SECRET', 'AUTH_TRUST_HOST', 'AUTH_URL', 'AUTH_SQLITE_FILE']) expect(envModule).toContain(`${name}: {`);
			expect(cli.stdout).not.toContain('needs Node');
			if (apps[0] === appDir) expect(cli.stdout).toContain('Dependencies installed');
		});

		if (ext === 'js') {
			it('writes the files the app owns in JavaScript with JSDoc types: .js modules, <script> without lang="ts"', async () => {
				await expectJsdocFiles(appDir, ['auth', 'authorization', 'env', 'hooks.server']);
			});
		}

		credentialsFlows(() => ({
			server: server!,
			browser: browser!,
			check: () => check(appDir, { tsconfig, env: toolchain.env }),
			runCliAgain: () => createAuth(appDir, ['--yes', '--providers', providers])
		}));

		if (ext === 'ts') guardsFlows(() => ({ server: server!, browser: browser! }));
		// Before the idp flows, which would make the IdP's user first.
		if (ext === 'ts') federatedMergeFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }));
		if (providers.includes('idp')) idpFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }));
		if (providers.includes('email')) emailFlows(() => ({ server: server!, browser: browser!, inbox }));
		passwordFlows(() => ({ server: server!, browser: browser!, inbox, strategy: 'jwt' }));
		defenceFlows(() => ({ server: server!, browser: browser! }));
		if (ext === 'ts') passkeyFlows(() => ({ server: server!, browser: browser!, authenticators: async () => sqliteCount(appDir, 'auth_authenticators') }));
		if (ext === 'ts') preHijackingFlows(() => ({
				server: server!,
				browser: browser!,
				inbox,
				strategy: 'jwt',
				passkeys: true,
				emailLinks: true,
				authenticators: async () => sqliteCount(appDir, 'auth_authenticators')
			}));

		if (ext === 'ts') {
			describe('with passwords.requireEmailVerification turned on in src/auth.ts', () => {
				const earlierEmail = `earlier-${Date.now()}@example.com`;
				beforeAll(async () => {
					// From a client address of its own: the flows above used up 127.0.0.1's sign-ups for the hour.
					expect((await postForm(`${server!.url}/signup`, { email: earlierEmail, password: PASSWORD }, '127.0.0.68')).location).toBe('/');
					await server!.stop();
					await requireEmailVerification(appDir, ext);
					await build(appDir, { env: toolchain.env });
					server = await start(appDir, { mode: 'preview', env: toolchain.env, port: idp?.port });
				});
				emailVerificationFlows(() => ({ server: server!, browser: browser!, inbox, earlierEmail }));
			});
		}
	});
}

describe('an app under paths.base (kit3-ts, served at /base)', () => {
	const base = '/base';
	let appDir: string;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let idp: AppIdp | undefined;
	let cli: Awaited<ReturnType<typeof runCli>>;

	beforeAll(async () => {
		appDir = await copyFixture('kit3-ts');
		apps.push(appDir);
		await useBasePath(appDir, base);
		cli = await createAuth(appDir, ['--yes', '--providers', ALL_PROVIDERS, '--no-install']);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		await shareInstall(apps[0]!, appDir);
		idp = await startIdpFor(appDir, base);
		await useInbox(appDir, inbox);
		await build(appDir, { env: toolchain.env });
		server = await start(appDir, { mode: 'preview', env: toolchain.env, port: idp.port });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await idp?.idp.stop();
	});

	it("prints the next steps under the base: the callback URL to register, the pages to open", () => {
		// The note box wraps its lines: compare the words.
		const printed = cli.stdout.replace(/[│\s]+/g, ' ');
		expect(printed).toContain('register the callback URL http://localhost:5173/base/auth/callback/idp');
		expect(printed).toContain('Open /base/signup to create an account, then /base/account.');
	});

	it('passes svelte-check with 0 errors and 0 warnings', async () => {
		const result = await check(appDir, { tsconfig: './tsconfig.json', env: toolchain.env });
		expect(result.diagnostics).toEqual([]);
		expect([result.errors, result.warnings]).toEqual([0, 0]);
	});

	basePathFlows(() => ({ server: server!, browser: browser!, base, inbox, idp: idp!.idp }));
});
