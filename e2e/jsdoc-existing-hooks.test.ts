/**
 * A SvelteKit 2 JSDoc app (`sv create --types jsdoc`) that already has a `handle` of its own: the
 * CLI must keep that handle running (composed after authentication and authorization with
 * `sequence`), write the files the app owns as JavaScript with JSDoc types, and leave an app that
 * type-checks (every provider, so svelte-check sees each provider's config as JavaScript),
 * builds and signs users in: the credentials flows (./credentials-flow.ts), the idp flows
 * against the dev IdP (./idp-flow.ts) and the email-link flows against a local SMTP server
 * (./email-flow.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInbox, type Inbox } from '../runtime/test/smtp.js';
import { credentialsFlows } from './credentials-flow.js';
import { emailFlows, useInbox } from './email-flow.js';
import { build, check, copyFixture, removeApp, runCli, start, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { idpFlows, startIdpFor, type AppIdp } from './idp-flow.js';
import { expectJsdocFiles } from './jsdoc-files.js';

// Two-factor authentication too: its pages go through svelte-check in JavaScript with JSDoc types on SvelteKit 2.
const PROVIDERS = ['--providers', 'credentials,email,idp,social,github,google,oidc', '--two-factor'];

// The app's own hook, written into the copy before the CLI runs (the fixture stays as generated).
const APP_HOOKS = `/** @type {import('@sveltejs/kit').Handle} */
export async function handle({ event, resolve }) {
	const response = await resolve(event);
	response.headers.set('x-app-hook', 'ran');
	return response;
}
`;

describe('a JSDoc app with its own hooks.server.js', () => {
	let appDir: string;
	let server: Server | undefined;
	let browser: Browser | undefined;
	let idp: AppIdp | undefined;
	let inbox: Inbox | undefined;

	beforeAll(async () => {
		appDir = await copyFixture('kit2-jsdoc');
		await fs.writeFile(path.join(appDir, 'src/hooks.server.js'), APP_HOOKS);
		const cli = await runCli(appDir, ['--yes', ...PROVIDERS]);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		idp = await startIdpFor(appDir);
		inbox = await startInbox();
		await useInbox(appDir, inbox);
		await build(appDir);
		server = await start(appDir, { mode: 'preview', port: idp.port });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await idp?.idp.stop();
		await inbox?.close();
		if (appDir) await removeApp(appDir);
	});

	it('composes the existing handle instead of replacing it, and writes no second hooks file', async () => {
		const hooks = await fs.readFile(path.join(appDir, 'src/hooks.server.js'), 'utf8');
		expect(hooks).toContain("response.headers.set('x-app-hook', 'ran');");
		expect(hooks).toContain('export const handle = sequence(authentication, authorization, appHandle);');
		await expect(fs.access(path.join(appDir, 'src/hooks.server.ts'))).rejects.toThrow();
	});

	it('writes the files the app owns in JavaScript with JSDoc types: .js modules, <script> without lang="ts"', async () => {
		await expectJsdocFiles(appDir, ['auth', 'authorization']);
	});

	it("still runs the app's handle on every response", async () => {
		const response = await fetch(`${server!.url}/`);
		expect(response.status).toBe(200);
		expect(response.headers.get('x-app-hook')).toBe('ran');
	});

	credentialsFlows(() => ({
		server: server!,
		browser: browser!,
		check: () => check(appDir, { tsconfig: './jsconfig.json' }),
		runCliAgain: () => runCli(appDir, ['--yes', ...PROVIDERS])
	}));

	idpFlows(() => ({ server: server!, browser: browser!, idp: idp!.idp }));
	emailFlows(() => ({ server: server!, browser: browser!, inbox: inbox! }));
});
