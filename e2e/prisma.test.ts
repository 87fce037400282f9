/**
 * An app on Prisma (e2e/fixtures/kit2-prisma: Prisma 7's `prisma init` for SQLite, a model of
 * its own, and `src/lib/server/prisma.ts` exporting the client over Prisma's better-sqlite3
 * driver adapter, as Prisma's SvelteKit guide writes it). `--yes` chooses the Prisma adapter, as
 * Enter at the prompt would: the auth models land in the app's schema.prisma, `src/auth.ts`
 * hands the app's client to PrismaAdapter, and create-auth installs the app.
 *
 * Prisma's schema engine (which `prisma db push` runs) is downloaded from outside the npm
 * registry and cannot be fetched here: the push create-auth runs fails, and the test checks that
 * the run says so and still ends well. The tables are then made as `db push` would make them
 * from those models (`prismaTablesSql`), and `prisma generate` runs without the engine (its
 * download skipped). Then the app type-checks, builds, and Chromium signs up, out and in through
 * the app's own Prisma Client, the rows in its SQLite file.
 *
 * The same on SvelteKit 3: kit3-ts with that Prisma setup moved over (the client module reading
 * DATABASE_URL from `$app/env/private`, declared in `src/env.ts`, as SvelteKit 3 has it).
 *
 * Node 22: Prisma 7.10's CLI depends on @prisma/streams-local, which needs Node 22, and sv's
 * `.npmrc` (`engine-strict=true`) refuses the install on Node 20.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRISMA_MODELS, prismaTablesSql } from '../runtime/test/prisma.js';
import { build, check, copyFixture, fixturesDir, localBin, removeApp, run, runCli, start, type RunResult, type Server } from './harness/app.js';
import { launchBrowser, type Browser } from './harness/browser.js';
import { sqliteRows } from './harness/databases.js';
import { node22, type NodeToolchain } from './harness/node.js';
import { freshPage, signedInAs, signInResponse, signUpAt } from './credentials-flow.js';

const EMAIL = 'hedy@example.com';

/**
 * kit3-ts given kit2-prisma's Prisma setup: its schema, config, `.env` and dependencies, and the
 * client module as a SvelteKit 3 app writes it, DATABASE_URL declared in `src/env.ts`.
 */
async function kit3PrismaApp(): Promise<string> {
	const appDir = await copyFixture('kit3-ts');
	const from = path.join(fixturesDir, 'kit2-prisma');
	for (const file of ['prisma/schema.prisma', 'prisma7.config.ts', '.env']) {
		await fs.mkdir(path.dirname(path.join(appDir, file)), { recursive: true });
		await fs.copyFile(path.join(from, file), path.join(appDir, file));
	}
	const client = await fs.readFile(path.join(from, 'src/lib/server/prisma.ts'), 'utf8');
	await fs.mkdir(path.join(appDir, 'src/lib/server'), { recursive: true });
	await fs.writeFile(path.join(appDir, 'src/lib/server/prisma.ts'), client.replace("'$env/static/private'", "'$app/env/private'"));
	await fs.writeFile(
		path.join(appDir, 'src/env.ts'),
		"import { defineEnvVars } from '@sveltejs/kit/env';\n\nexport const variables = defineEnvVars({\n\tDATABASE_URL: { schema: (value) => value ?? 'file:./dev.db' }\n});\n"
	);
	const prismaApp = JSON.parse(await fs.readFile(path.join(from, 'package.json'), 'utf8'));
	const manifest = JSON.parse(await fs.readFile(path.join(appDir, 'package.json'), 'utf8'));
	manifest.dependencies = { ...manifest.dependencies, ...prismaApp.dependencies };
	for (const name of ['prisma', 'dotenv']) manifest.devDependencies[name] = prismaApp.devDependencies[name];
	await fs.writeFile(path.join(appDir, 'package.json'), `${JSON.stringify(manifest, null, '\t')}\n`);
	return appDir;
}

const APPS = [
	{ kit: 2, setUp: () => copyFixture('kit2-prisma'), lib: '$lib/server/prisma' },
	{ kit: 3, setUp: kit3PrismaApp, lib: '#lib/server/prisma.js' }
];
/** `prisma generate` without the engines' download (see above). */
const NO_ENGINE_DOWNLOAD = { PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false', PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: '1' };

describe.each(APPS)('a SvelteKit $kit app on Prisma (SQLite), with the Prisma adapter', ({ setUp, lib }) => {
	let toolchain: NodeToolchain;
	let appDir: string;
	let originalSchema: string;
	let cli: RunResult;
	let server: Server | undefined;
	let browser: Browser | undefined;
	const read = (file: string) => fs.readFile(path.join(appDir, file), 'utf8');
	/** Rows of the app's database (`DATABASE_URL="file:./dev.db"`). */
	const query = <T>(sql: string): T[] => sqliteRows(path.join(appDir, 'dev.db'), sql);

	beforeAll(async () => {
		toolchain = await node22();
		appDir = await setUp();
		originalSchema = await read('prisma/schema.prisma');
		cli = await runCli(appDir, ['--yes', '--providers', 'credentials'], { node: toolchain.node, env: { ...toolchain.env, ...NO_ENGINE_DOWNLOAD } });
		if (cli.exitCode !== 0) throw new Error(`create-auth failed:\n${cli.stdout}\n${cli.stderr}`);
		// What `prisma db push` would have made, then the client the app imports.
		const db = new Database(path.join(appDir, 'dev.db'));
		for (const statement of prismaTablesSql(PRISMA_MODELS, 'sqlite')) db.exec(statement);
		db.close();
		const generate = await run(localBin(appDir, 'prisma'), ['generate'], { cwd: appDir, env: { ...toolchain.env, ...NO_ENGINE_DOWNLOAD } });
		if (generate.exitCode !== 0) throw new Error(`prisma generate failed:\n${generate.stdout}\n${generate.stderr}`);
		await build(appDir, { env: toolchain.env });
		server = await start(appDir, { mode: 'preview', env: toolchain.env });
		browser = await launchBrowser();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		if (appDir) await removeApp(appDir);
	});

	it("chooses the Prisma adapter over the app's client, and adds the auth models after the app's schema, which stays byte for byte", async () => {
		const manifest = JSON.parse(await read('.create-auth/manifest.json')) as { answers: { adapter: string } };
		expect(manifest.answers.adapter).toBe('prisma');
		const auth = await read('src/auth.ts');
		expect(auth).toContain(`import { prisma } from '${lib}';`);
		expect(auth).toContain("export const adapter = PrismaAdapter(prisma, { provider: 'sqlite' });");
		const schema = await read('prisma/schema.prisma');
		expect(schema.startsWith(originalSchema)).toBe(true);
		expect(schema.slice(originalSchema.length)).toContain('model AuthUser {');
		// The native module users sign in through was built: npm skips install scripts it was not told to allow.
		await expect(fs.access(path.join(appDir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).resolves.toBeUndefined();
	});

	it("runs the app's prisma db push after the install and, when it fails, says so and what to run, without failing the run", () => {
		expect(cli.stdout + cli.stderr).toContain('The auth tables were not created: prisma db push did not create the auth tables');
		expect(cli.stdout + cli.stderr).toContain('npx create-auth migrate');
	});

	it('type-checks with svelte-check, and a second run writes nothing', async () => {
		const result = await check(appDir, { env: toolchain.env });
		expect(result.diagnostics.filter((d) => d.type === 'ERROR')).toEqual([]);
		expect(result.errors).toBe(0);
		const again = await runCli(appDir, ['--yes', '--providers', 'credentials', '--no-install'], { node: toolchain.node, env: { ...toolchain.env, ...NO_ENGINE_DOWNLOAD } });
		expect(again.exitCode).toBe(0);
		expect(again.stdout).toContain('Nothing to write');
	});

	it("signs up, out and in through the app's own Prisma Client, the rows in its database", async () => {
		const page = await freshPage(browser!);
		await signUpAt(page, server!.url, EMAIL);
		expect(await signedInAs(page, server!.url, EMAIL)).toBe(true);
		expect(query<{ email: string }>('SELECT email FROM auth_users')).toEqual([{ email: EMAIL }]);
		expect(query<{ provider: string }>('SELECT provider FROM auth_accounts')).toEqual([{ provider: 'credentials' }]);
		await page.goto(`${server!.url}/signout`);
		await page.getByRole('button', { name: 'Sign out' }).click();
		await page.waitForURL((target) => target.pathname === '/');
		expect(await signedInAs(page, server!.url, EMAIL)).toBe(false);
		expect((await signInResponse(page, server!.url, EMAIL, 'correct horse battery staple')).status()).toBe(303);
		expect(await signedInAs(page, server!.url, EMAIL)).toBe(true);
		await page.context().close();
	});

	it('doctor finds no error', async () => {
		const doctor = await runCli(appDir, ['doctor', '--json'], { node: toolchain.node, env: toolchain.env });
		const { checks } = JSON.parse(doctor.stdout) as { checks: { id: string; status: string; message: string }[] };
		expect(checks.filter((check) => check.status === 'error'), doctor.stdout).toEqual([]);
	});
});
