/**
 * SvelteKit 3 apps, as the `sv` 1.0 line creates them (TypeScript and JSDoc), under Node 22:
 * `create-auth --yes`, then the same flows as the SvelteKit 2 app (./credentials-flow.ts). Both
 * apps get every provider (svelte-check sees them all, in TypeScript and in JavaScript with
 * JSDoc types; the OAuth ones' .env keys stay empty), the idp flows against the dev IdP
 * (./idp-flow.ts), the email-link flows against a local SMTP server (./email-flow.ts), the
 * password flows (./password-flow.ts) and the account page's sessions (./sessions-flow.ts: their
 * src/auth sets session.revalidateAge to 2 s and freshAge to 20 s, so that ending a JWT session
 * and asking for a new sign-in are seen by moving the server's clock a few seconds). The TypeScript app also goes through the defence flows
 * over HTTP (./defence-flow.ts: cross-site POSTs refused, auth-page headers; runtime behaviour
 * that the JSDoc app's generated files do not change), the passkey flows (./passkey-flow.ts), its
 * passkeys' relying party set to localhost in its src/auth.ts, since its AUTH_URL is 127.0.0.1 for
 * the dev IdP, and the account pre-hijacking flows (./pre-hijacking-flow.ts; its idp provider
 * allows linking by email in src/auth.ts, for the classic-federated merge).
 * Both apps have two-factor authentication (`--two-factor`); the TypeScript app goes through
 * ./two-factor-flow.ts (a password reset still asks; a passkey sign-in does not).
 * The TypeScript app's install is the CLI's own; the JSDoc app ends up with the
 * same dependencies and shares it (no second better-sqlite3 compile). The TypeScript app also
 * gets a remote function and an endpoint guarded with requireUser(), and the sign-in rate limit
 * is driven there (./guards-flow.ts); last, the same app with `passwords:
 * { requireEmailVerification: true }` in its src/auth.ts (a copy made before the first build, with
 * that edit, built ahead and served on the same port and SQLite file in its place) goes through
 * ./email-verification-flow.ts.
 * A third copy of kit3-ts, served under `paths.base` `/base` and sharing the first install, goes
 * through the base-path flows (./base-path-flow.ts) and svelte-check.
 *
 * The apps are made (CLI, build, svelte-check) ahead of their describes, two at a time once the
 * first install is done, so that one builds while another's tests run.
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
import { build, check, copyApp, copyFixture, removeApp, runCli, setEnv, shareInstall, start, type CheckResult, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { sqliteCount } from './harness/databases.js';
import { limit } from './harness/limit.js';
import { node22, type NodeToolchain } from './harness/node.js';
import { idpFlows, startIdpFor, type AppIdp } from './idp-flow.js';
import { postForm } from './lockout-flow.js';
import { expectJsdocFiles } from './jsdoc-files.js';
import { passkeyFlows, passkeysOnLocalhost } from './passkey-flow.js';
import { passwordFlows } from './password-flow.js';
import { allowEmailLinking, federatedMergeFlows, preHijackingFlows } from './pre-hijacking-flow.js';
import { sessionsFlows, shortSessionTimes } from './sessions-flow.js';
import { twoFactorFlows } from './two-factor-flow.js';

let toolchain: NodeToolchain;
let inbox: Inbox;
const apps: string[] = [];

/** The CLI as a user on Node 22 runs it: the same binary, Node 22 first on PATH. */
const createAuth = (appDir: string, args: string[]) => runCli(appDir, args, { node: toolchain.node, env: toolchain.env });

const ALL_PROVIDERS = 'credentials,email,passkey,idp,social,github,google,oidc';

const FIXTURES = [
	{ fixture: 'kit3-ts', providers: ALL_PROVIDERS, ext: 'ts' },
	{ fixture: 'kit3-jsdoc', providers: ALL_PROVIDERS, ext: 'js' }
] as const;

/** An app made and built, not yet served; `idp` is its dev IdP, whose port it must listen on. */
interface Prepared {
	appDir: string;
	cli: RunResult;
	idp?: AppIdp;
	/** svelte-check of the app, run right after its build (its source does not change after); not for the verifying copy. */
	checked?: CheckResult;
}

/** Each app being made, by name (a fixture, `verifying` or `base`); started in the file's beforeAll. */
const prepared = new Map<string, Promise<Prepared>>();

/** Starts `make` through `gate` under `name`; a failure is reported by the describe that awaits it. */
function ahead(gate: ReturnType<typeof limit>, name: string, make: () => Promise<Prepared>): void {
	const app = gate(make);
	app.catch(() => undefined);
	prepared.set(name, app);
}

beforeAll(async () => {
	toolchain = await node22();
	inbox = await startInbox();
	// Two at a time: kit3-ts installs (the CLI's own install) while the others wait for it; then
	// two build at once, and the rest build while the first app's tests run.
	const gate = limit(2);
	let installed!: (appDir: string | Error) => void;
	const install = new Promise<string>((resolve, reject) => (installed = (result) => (result instanceof Error ? reject(result) : resolve(result))));
	install.catch(() => undefined);

	ahead(gate, 'kit3-ts', async () => {
		try {
			const appDir = await copyFixture('kit3-ts');
			apps.push(appDir);
			const cli = await createAuth(appDir, ['--yes', '--providers', ALL_PROVIDERS, '--two-factor']);
			if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
			installed(appDir);
			await prepareGuards(appDir);
			const idp = await startIdpFor(appDir);
			await passkeysOnLocalhost(appDir, 'ts', idp.port);
			await allowEmailLinking(appDir, 'ts');
			await shortSessionTimes(appDir, 'ts');
			await useInbox(appDir, inbox);
			// The same app with the option turned on, as its owner would edit src/auth.ts and build
			// again: made now, built while the tests run, served later in the first one's place, on
			// its SQLite file (AUTH_SQLITE_FILE; its .env is a copy, AUTH_SECRET and AUTH_URL included).
			const verifying = await copyApp(appDir);
			apps.push(verifying);
			await requireEmailVerification(verifying, 'ts');
			await setEnv(path.join(verifying, '.env'), { AUTH_SQLITE_FILE: path.join(appDir, 'auth.sqlite') });
			await shareInstall(appDir, verifying);
			ahead(gate, 'verifying', async () => {
				await build(verifying, { env: toolchain.env });
				return { appDir: verifying, cli, idp };
			});
			await build(appDir, { env: toolchain.env });
			return { appDir, cli, idp, checked: await check(appDir, { tsconfig: './tsconfig.json', env: toolchain.env }) };
		} catch (error) {
			installed(error instanceof Error ? error : new Error(String(error)));
			throw error;
		}
	});

	ahead(gate, 'kit3-jsdoc', async () => {
		const appDir = await copyFixture('kit3-jsdoc');
		apps.push(appDir);
		const cli = await createAuth(appDir, ['--yes', '--providers', ALL_PROVIDERS, '--two-factor', '--no-install']);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		await shareInstall(await install, appDir);
		const idp = await startIdpFor(appDir);
		await shortSessionTimes(appDir, 'js');
		await useInbox(appDir, inbox);
		await build(appDir, { env: toolchain.env });
		return { appDir, cli, idp, checked: await check(appDir, { tsconfig: './jsconfig.json', env: toolchain.env }) };
	});

	ahead(gate, 'base', async () => {
		const appDir = await copyFixture('kit3-ts');
		apps.push(appDir);
		await useBasePath(appDir, BASE);
		const cli = await createAuth(appDir, ['--yes', '--providers', ALL_PROVIDERS, '--two-factor', '--no-install']);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		await shareInstall(await install, appDir);
		const idp = await startIdpFor(appDir, BASE);
		await useInbox(appDir, inbox);
		await build(appDir, { env: toolchain.env });
		return { appDir, cli, idp, checked: await check(appDir, { tsconfig: './tsconfig.json', env: toolchain.env }) };
	});
});

afterAll(async () => {
	// The verifying copy has kit3-ts's dev IdP: each stopped once.
	const idps = new Set<AppIdp>();
	for (const result of await Promise.allSettled(prepared.values())) if (result.status === 'fulfilled' && result.value.idp) idps.add(result.value.idp);
	for (const idp of idps) await idp.idp.stop();
	for (const app of apps) await removeApp(app);
	await inbox?.close();
});

/** The base path of the third app. */
const BASE = '/base';

for (const { fixture, providers, ext } of FIXTURES) {
	describe(`${providers} sign-in in a SvelteKit 3 app (${fixture})`, () => {
		let appDir: string;
		let server: Server | undefined;
		let browser: Browser | undefined;
		let idp: AppIdp | undefined;
		let cli: RunResult;
		let checked: CheckResult | undefined;

		beforeAll(async () => {
			({ appDir, cli, idp, checked } = await prepared.get(fixture)!);
			server = await start(appDir, { mode: 'preview', env: toolchain.env, port: idp?.port });
			browser = await launchBrowser();
		});

		afterAll(async () => {
			await browser?.close();
			await server?.stop();
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
			if (ext === 'ts') expect(cli.stdout).toContain('Dependencies installed');
		});

		if (ext === 'js') {
			it('writes the files the app owns in JavaScript with JSDoc types: .js modules, <script> without lang="ts"', async () => {
				await expectJsdocFiles(appDir, ['auth', 'authorization', 'env', 'hooks.server']);
			});
		}

		credentialsFlows(() => ({
			server: server!,
			browser: browser!,
			check: async () => checked!,
			runCliAgain: () => createAuth(appDir, ['--yes', '--providers', providers, '--two-factor'])
		}));

		const guards = ext === 'ts' ? guardsFlows(() => ({ server: server!, browser: browser! })) : undefined;
		// Before the idp flows, which would make the IdP's user first.
		if (ext === 'ts') federatedMergeFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }));
		if (providers.includes('idp')) idpFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }), { reauthentication: ext === 'ts' });
		// The idp flows above moved the server's clock past the guards' sign-in window: here, no move
		// of its own adds to the app's clock's lead over the dev IdP's before the idp flows.
		guards?.afterWindow();
		if (providers.includes('email')) emailFlows(() => ({ server: server!, browser: browser!, inbox }));
		passwordFlows(() => ({ server: server!, browser: browser!, inbox, strategy: 'jwt' }));
		sessionsFlows(() => ({ server: server!, browser: browser!, inbox }), { strategy: 'jwt', reauthentication: ext === 'ts' });
		if (ext === 'ts') twoFactorFlows(() => ({ server: server!, browser: browser!, inbox }), { passkeys: true, quickRevalidation: true });
		// Runtime behaviour over HTTP, which the language of the generated files does not change.
		if (ext === 'ts') defenceFlows(() => ({ server: server!, browser: browser! }));
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
					expect((await postForm(`${server!.url}/signup`, { email: earlierEmail, password: PASSWORD }, '127.0.0.68')).location).toBe('/account');
					const verifying = await prepared.get('verifying')!;
					await server!.stop();
					server = await start(verifying.appDir, { mode: 'preview', env: toolchain.env, port: idp?.port });
				});
				emailVerificationFlows(() => ({ server: server!, browser: browser!, inbox, earlierEmail }));
			});
		}
	});
}

describe('an app under paths.base (kit3-ts, served at /base)', () => {
	const base = BASE;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let app: Prepared;

	beforeAll(async () => {
		app = await prepared.get('base')!;
		server = await start(app.appDir, { mode: 'preview', env: toolchain.env, port: app.idp!.port });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
	});

	it("prints the next steps under the base: the callback URL to register, the pages to open", () => {
		// The note box wraps its lines: compare the words.
		const printed = app.cli.stdout.replace(/[│\s]+/g, ' ');
		expect(printed).toContain('register the callback URL http://localhost:5173/base/auth/callback/idp');
		expect(printed).toContain('run dev, then open /base/signup to create an account, then /base/account.');
	});

	it('passes svelte-check with 0 errors and 0 warnings', async () => {
		const result = app.checked!;
		expect(result.diagnostics).toEqual([]);
		expect([result.errors, result.warnings]).toEqual([0, 0]);
	});

	basePathFlows(() => ({ server: server!, browser: browser!, base, inbox, idp: app.idp!.idp }));
});
