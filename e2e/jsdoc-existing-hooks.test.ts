/**
 * A JSDoc app (`sv create --types jsdoc`) that already has a `handle` of its own: the CLI must
 * keep that handle running (composed after authentication and authorization with `sequence`)
 * and leave an app that type-checks, builds and guards its pages.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, check, copyFixture, removeApp, runCli, start, type Server } from './harness/app.js';

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

	beforeAll(async () => {
		appDir = await copyFixture('kit2-jsdoc');
		await fs.writeFile(path.join(appDir, 'src/hooks.server.js'), APP_HOOKS);
		const cli = await runCli(appDir, ['--yes']);
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		await build(appDir);
		server = await start(appDir, { mode: 'preview' });
	});

	afterAll(async () => {
		await server?.stop();
		if (appDir) await removeApp(appDir);
	});

	it('composes the existing handle instead of replacing it, and writes no second hooks file', async () => {
		const hooks = await fs.readFile(path.join(appDir, 'src/hooks.server.js'), 'utf8');
		expect(hooks).toContain("response.headers.set('x-app-hook', 'ran');");
		expect(hooks).toContain('export const handle = sequence(authentication, authorization, appHandle);');
		await expect(fs.access(path.join(appDir, 'src/hooks.server.ts'))).rejects.toThrow();
	});

	it('passes svelte-check with 0 errors and 0 warnings', async () => {
		const result = await check(appDir, { tsconfig: './jsconfig.json' });
		expect(result.diagnostics).toEqual([]);
		expect({ errors: result.errors, warnings: result.warnings }).toEqual({ errors: 0, warnings: 0 });
	});

	it("still runs the app's handle on every response", async () => {
		const response = await fetch(`${server!.url}/`);
		expect(response.status).toBe(200);
		expect(response.headers.get('x-app-hook')).toBe('ran');
	});

	it('guards /account and serves the sign-in form', async () => {
		const guarded = await fetch(`${server!.url}/account`, { redirect: 'manual' });
		expect(guarded.status).toBe(303);
		expect(guarded.headers.get('location')).toBe('/signin?callbackUrl=%2Faccount');
		const signin = await fetch(`${server!.url}/signin`);
		const html = await signin.text();
		expect(signin.status).toBe(200);
		expect(html).toContain('name="providerId" value="credentials"');
		expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Sign in<\/button>/);
	});
});
