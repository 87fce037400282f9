/**
 * The walking skeleton, end to end: `create-auth --yes --providers credentials,idp` on a fresh
 * `sv create` SvelteKit 2 app, then a real install, svelte-check, build and preview, driven by
 * Chromium through sign-up, sign-in, the guards and sign-out (./credentials-flow.ts), and
 * through the dev IdP's login page (./idp-flow.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFlows } from './credentials-flow.js';
import { build, check, copyFixture, removeApp, runCli, start, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { idpFlows, startIdpFor, type AppIdp } from './idp-flow.js';

const PROVIDERS = ['--providers', 'credentials,idp'];

describe('credentials and idp sign-in in a SvelteKit 2 TypeScript app', () => {
	let appDir: string;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let idp: AppIdp | undefined;
	let cli: Awaited<ReturnType<typeof runCli>>;

	beforeAll(async () => {
		appDir = await copyFixture('kit2-ts');
		cli = await runCli(appDir, ['--yes', ...PROVIDERS]);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		idp = await startIdpFor(appDir);
		await build(appDir);
		server = await start(appDir, { mode: 'preview', port: idp.port });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await idp?.idp.stop();
		if (appDir) await removeApp(appDir);
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

	idpFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }));
});
