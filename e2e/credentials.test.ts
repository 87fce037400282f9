/**
 * The walking skeleton, end to end: `create-auth --yes --providers credentials,idp` on a fresh
 * `sv create` SvelteKit 2 app, then a real install, svelte-check, build and preview, driven by
 * Chromium through sign-up, sign-in, the guards and sign-out (./credentials-flow.ts), and
 * through the dev IdP's login page (./idp-flow.ts). A second copy served under `paths.base`
 * `/base`, set up by the packed package (`npx` of what `npm pack` makes, its dependencies from the
 * registry) and sharing the first install, passes svelte-check, builds, and its guard and sign-in
 * page stay under the base (the SvelteKit 3 app at /base goes through Chromium in kit3.test.ts);
 * it is made, checked and built while the first app's tests run.
 * The first app is built with a strict `kit.csp` (./defence-flow.ts): every flow runs under it,
 * and the defence flows check Fetch Metadata, the auth pages' headers and that no CSP violation
 * is reported through sign-up, sign-in and sign-out. Its `reroute` hook serves locale-prefixed
 * URLs (`/de/...`): the guard and those defences hold under the prefixes (./reroute-flow.ts).
 * The app has two-factor authentication (./two-factor-flow.ts, its QR code under that CSP). Last, the IdP's user manages how they sign
 * in on /account (./sign-in-methods-flow.ts). After every other test, the first app, installed
 * under this process's Node, is served by another (22, or 24 under 22): its better-sqlite3 built
 * for another Node is named by the server and by doctor, and `npm rebuild` fixes it
 * (./native-driver-flow.ts).
 * The first app is the one whose servers hash passwords at the runtime's production cost
 * (N=2^17); every other e2e app's servers derive those hashes at a test cost
 * (./harness/scrypt-preload.js).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBasePath } from './base-path-flow.js';
import { credentialsFlows, navigate } from './credentials-flow.js';
import { defenceFlows, useStrictCsp } from './defence-flow.js';
import { build, check, copyFixture, hashAtProductionCost, packedTarball, removeApp, run, runCli, runPackedCli, shareInstall, start, type CheckResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { sqliteValues } from './harness/databases.js';
import { ledgerSoFar } from './harness/ledger.js';
import { idpFlows, startIdpFor, type AppIdp } from './idp-flow.js';
import { lockoutFlows } from './lockout-flow.js';
import { nativeDriverFlows } from './native-driver-flow.js';
import { GUARDED_ROUTE, reroutedFlows, useLocalePrefixes } from './reroute-flow.js';
import { signInMethodsFlows } from './sign-in-methods-flow.js';
import { twoFactorFlows } from './two-factor-flow.js';

/**
 * The CLI's answers, the same at the first run and the re-run: passwords and the dev IdP,
 * two-factor authentication, and the guard on the account page and the page that only it protects
 * (./reroute-flow.ts).
 */
const PROVIDERS = ['--providers', 'credentials,idp', '--two-factor', '--protect', `/account,${GUARDED_ROUTE}`];
const apps: string[] = [];

/** The app under /base: set up, svelte-checked and built from the first app's install, started once that install is there. */
let based: Promise<{ appDir: string; checked: CheckResult }> | undefined;

/**
 * Makes the /base copy of kit2-ts with the package as npm would publish it (`npx` of the packed
 * tarball), then the install of `installed`, checks it with svelte-check and builds it.
 */
async function makeBased(installed: string): Promise<{ appDir: string; checked: CheckResult }> {
	const appDir = await copyFixture('kit2-ts');
	apps.push(appDir);
	await useBasePath(appDir, '/base');
	const cli = await runPackedCli(appDir, ['--yes', ...PROVIDERS, '--no-install']);
	if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
	await shareInstall(installed, appDir);
	const checked = await check(appDir);
	await build(appDir);
	return { appDir, checked };
}

afterAll(async () => {
	await based?.catch(() => undefined);
	for (const app of apps) await removeApp(app);
});

/** The first app, once set up: the last describe serves it under Node 22. */
let firstApp: { appDir: string; port: number } | undefined;

describe('credentials and idp sign-in in a SvelteKit 2 TypeScript app', () => {
	let appDir: string;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let idp: AppIdp | undefined;
	let cli: Awaited<ReturnType<typeof runCli>>;

	beforeAll(async () => {
		appDir = await copyFixture('kit2-ts');
		apps.push(appDir);
		hashAtProductionCost(appDir);
		await useLocalePrefixes(appDir);
		cli = await runCli(appDir, ['--yes', ...PROVIDERS]);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		based = makeBased(appDir);
		based.catch(() => undefined); // reported by the /base describe, which awaits it
		idp = await startIdpFor(appDir);
		await useStrictCsp(appDir);
		await build(appDir);
		server = await start(appDir, { mode: 'preview', port: idp.port });
		firstApp = { appDir, port: idp.port };
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await idp?.idp.stop();
	});

	it('installs the dependencies itself and prints plain progress without a TTY', () => {
		expect(cli.stdout).toContain('Installing dependencies with npm');
		expect(cli.stdout).toContain('Dependencies installed');
	});

	credentialsFlows(() => ({
		server: server!,
		browser: browser!,
		check: () => check(appDir),
		runCliAgain: () => runCli(appDir, ['--yes', ...PROVIDERS])
	}));

	it("hashed the passwords of those sign-ups at the runtime's production cost, scrypt N=2^17, r=8, p=1 (OWASP), derived so in the server", () => {
		const hashes = sqliteValues(appDir, 'auth_accounts', 'password_hash').filter(Boolean);
		expect(hashes.length).toBeGreaterThan(0);
		for (const hash of hashes) expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
		expect(ledgerSoFar().counts.fullCostHashes).toBeGreaterThanOrEqual(hashes.length);
	});

	idpFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }));

	lockoutFlows(() => ({ server: server! }));

	defenceFlows(() => ({ server: server!, browser: browser! }), { csp: true });

	reroutedFlows(() => ({ server: server! }));

	twoFactorFlows(() => ({ server: server!, browser: browser! }));

	// Last: it gives the IdP's user a password and unlinks the IdP.
	signInMethodsFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }));
});

describe('the same app served under paths.base /base', () => {
	let server: Server | undefined;

	afterAll(async () => {
		await server?.stop();
	});

	it('is set up by a package that holds the runtime and the CLI, and no tests', async () => {
		if (!based) throw new Error('the first app was not set up, so the /base copy was not made');
		await based;
		const listed = (await run('tar', ['-tzf', await packedTarball()], { cwd: process.cwd() })).stdout.split('\n').filter(Boolean);
		expect(listed.filter((entry) => /\.test\.|\/test\/|^package\/(e2e|src|bench|scripts)\//.test(entry))).toEqual([]);
		expect(listed).toEqual(expect.arrayContaining(['package/bin/create-auth.js', 'package/dist/cli.js', 'package/runtime/server/auth/index.ts', 'package/templates/routes/signin/+page.svelte.hbs']));
	});

	it('passes svelte-check with 0 errors and 0 warnings, builds, and keeps the guard and the sign-in page under the base', async () => {
		if (!based) throw new Error('the first app was not set up, so the /base copy was not made');
		const { appDir, checked: result } = await based;
		expect(result.diagnostics).toEqual([]);
		expect([result.errors, result.warnings]).toEqual([0, 0]);
		server = await start(appDir, { mode: 'preview' });
		expect(await navigate(`${server.url}/base/account`)).toEqual({ status: 303, location: '/base/signin?callbackUrl=%2Fbase%2Faccount' });
		const page = await (await fetch(`${server.url}/base/signin?callbackUrl=%2Fbase%2Faccount`)).text();
		// Server-rendered links are relative to /base/signin: ./signup is /base/signup.
		expect(page).toContain('href="./signin/forgot-password"');
		expect(page).toContain('href="./signup?callbackUrl=%2Fbase%2Faccount"');
		expect(page).toContain('action="./signin"');
	});
});

// Last: it rebuilds the first app's better-sqlite3 for the serving Node (the /base copy keeps its own
// files: npm rebuild writes new ones, and the hard links to the old stay as they were).
describe('the first app served by another Node than it was installed with', () => {
	nativeDriverFlows(() => {
		if (!firstApp) throw new Error('the first app was not set up');
		return firstApp;
	});
});
