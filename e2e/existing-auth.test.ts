/**
 * An app that already has auth (e2e/fixtures/kit2-better-auth: `sv add drizzle better-auth`, whose
 * `src/lib/server/auth.ts` is Better Auth's and takes the `$lib/server/auth` specifier), issue 26:
 * `create-auth --yes` names Better Auth, where it found it and what running both means, still
 * exits 0, and imports the vendored runtime by its explicit index (`$lib/server/auth/index`), so
 * the app passes svelte-check and builds; Better Auth's own files are left as they were, doctor
 * warns that both run, a regenerate writes nothing, and the built app (after sv's next steps for Better Auth's tables,
 * `npm run auth:schema` and `npm run db:push`) answers `/signin` and Better Auth's own endpoint. One install (the CLI's own, with npm).
 *
 * Node 22: the app's better-sqlite3 (^13) needs it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, check, copyFixture, freePort, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { node22, type NodeToolchain } from './harness/node.js';

describe('an app set up by sv add drizzle better-auth', () => {
	let toolchain: NodeToolchain;
	let appDir: string;
	let fixture: { auth: string; hooks: string };
	let cli: RunResult;
	let server: Server | undefined;
	const read = (file: string) => fs.readFile(path.join(appDir, file), 'utf8');

	beforeAll(async () => {
		toolchain = await node22();
		appDir = await copyFixture('kit2-better-auth');
		fixture = { auth: await read('src/lib/server/auth.ts'), hooks: await read('src/hooks.server.ts') };
		cli = await runCli(appDir, ['--yes'], { node: toolchain.node, env: toolchain.env });
	});

	afterAll(async () => {
		await server?.stop();
		if (appDir) await removeApp(appDir);
	});

	it('names Better Auth, the files it is in and what running both means, and still exits 0', () => {
		expect(cli.exitCode, cli.stdout + cli.stderr).toBe(0);
		expect(cli.stdout).toContain('Better Auth is already set up in this app:');
		for (const place of ['better-auth in package.json', 'svelteKitHandler in src/hooks.server.ts', 'betterAuth() in src/lib/server/auth.ts']) {
			expect(cli.stdout).toContain(`  ${place}`);
		}
		expect(cli.stdout).toContain("Both hooks run on every request, and Better Auth's users cannot sign in");
		expect(cli.stdout).toContain('Dependencies installed');
	});

	it("imports the runtime by its explicit index, leaving Better Auth's module and its import as they were", async () => {
		expect(await read('src/auth.ts')).toContain("from '$lib/server/auth/index';");
		expect(await read('src/authorization.ts')).toContain("from '$lib/server/auth/index';");
		expect(await read('src/routes/account/+page.server.ts')).toContain("from '$lib/server/auth/index';");
		expect(await read('src/lib/server/auth.ts')).toBe(fixture.auth);
		const hooks = await read('src/hooks.server.ts');
		expect(hooks).toContain("import { auth } from '$lib/server/auth';");
		expect(hooks).toContain('export const handle = sequence(authentication, authorization, appHandle);');
	});

	it('types App.PageData.session with our Session beside the Session Better Auth gives App.Locals', async () => {
		const types = await read('src/app.d.ts');
		expect(types).toContain("import type { User, Session } from 'better-auth';");
		expect(types).toContain("import type { Session as AuthSession } from '$lib/auth';");
		expect(types).toContain('auth(): Promise<AuthSession | null>;');
		expect(types).toContain('session: AuthSession | null;');
	});

	it('passes svelte-check with 0 errors', async () => {
		const result = await check(appDir, { env: toolchain.env });
		expect(result.diagnostics.filter((diagnostic) => diagnostic.type === 'ERROR')).toEqual([]);
		expect(result.errors).toBe(0);
	});

	it('has doctor warn that Better Auth runs beside it, and find the generated imports past its module', async () => {
		const doctor = await runCli(appDir, ['doctor', '--json'], { node: toolchain.node, env: toolchain.env });
		const report = JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string }> };
		expect(report.checks).toContainEqual(expect.objectContaining({ id: 'existing-auth:better-auth', status: 'warn' }));
		expect(report.checks).toContainEqual(expect.objectContaining({ id: 'lib-imports', status: 'ok' }));
	});

	it('writes nothing on a regenerate', async () => {
		const again = await runCli(appDir, ['regenerate'], { node: toolchain.node, env: toolchain.env });
		expect(again.exitCode, again.stdout + again.stderr).toBe(0);
		expect(again.stdout).toContain('Nothing to write: the app is up to date.');
	});

	it('builds, and the built app answers /signin and Better Auth its own endpoint', async () => {
		// sv's next steps for Better Auth: its Drizzle schema, then its tables (create-auth pushed only its own).
		for (const script of ['auth:schema', 'db:push']) {
			const step = await run('npm', ['run', script], { cwd: appDir, env: toolchain.env, timeout: 120_000 });
			expect(step.exitCode, step.stdout + step.stderr).toBe(0);
		}
		await build(appDir, { env: toolchain.env });
		// Better Auth answers only at its baseURL (ORIGIN in .env is sv's dev server's): this server's.
		const port = await freePort();
		server = await start(appDir, { port, env: { ...toolchain.env, ORIGIN: `http://127.0.0.1:${port}` } });
		const signin = await fetch(`${server.url}/signin`);
		expect(signin.status, server.output()).toBe(200);
		expect(await signin.text()).toContain('Sign in');
		const ok = await fetch(`${server.url}/api/auth/ok`);
		expect(ok.status, server.output()).toBe(200);
		expect(await ok.json()).toEqual({ ok: true });
	});
});
