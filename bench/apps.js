// @ts-check
/**
 * The benchmark apps, per SvelteKit major built from that major's fixture: `floor` (no auth),
 * `floor-layout` (the floor plus a root layout server load, no auth), `ours` (the app
 * `create-auth --yes --providers credentials` generates), `ours-idp` (the app
 * `create-auth --yes --providers credentials,idp` generates, signed in with the idp provider at
 * a dev IdP, so that its session carries the provider's tokens), on Kit 3 `ours-db-sqlite` and
 * `ours-db-postgres` (`ours` with `--strategy database` on SQLite, and on a PostgreSQL database
 * of its own), `ours-db-postgres-cache` (`ours-db-postgres` with `session.cacheMaxAge: 5` in its
 * `src/auth.ts`) and, on Kit 2 only, `authjs` (`@auth/sveltekit` 1.x, whose peer range stops at
 * Kit 2), `better-auth` (the app `sv add drizzle better-auth` generates, e2e/fixtures/kit2-better-auth:
 * a session lookup in SQLite on every request) and `better-auth-cache` (the same with Better Auth's
 * `session.cookieCache`); `ours-db-sqlite` is on both majors, to match `better-auth`.
 * Each is the fixture copy + the CLI's output (ours, ours-idp) + the file layers under `bench/apps/`
 * copied over it, then installed and built with adapter-node. Apps of both majors are installed,
 * built and served with Node 22 (e2e/harness/node.js): Kit 3 requires it, Better Auth's `auth`
 * CLI does too (`engines` >= 22.12, and sv's `.npmrc` sets `engine-strict`), and one Node for
 * both majors makes their rows comparable.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { build, copyFixture, install, removeApp, repoRoot, run, runCli } from '../e2e/harness/app.js';
import { PRE_RESHAPE, releaseBin } from '../e2e/harness/release.js';
import { node22 } from '../e2e/harness/node.js';
import { postgresDatabase } from '../e2e/harness/databases.js';

/** @typedef {'floor' | 'floor-layout' | 'ours' | 'ours-0.1.0' | 'ours-direct' | 'ours-idp' | 'ours-db-sqlite' | 'ours-db-postgres' | 'ours-db-postgres-cache' | 'authjs' | 'better-auth' | 'better-auth-cache'} AppName */

/**
 * Apps without auth: no sign-in, no cookie. `floor-layout` is the floor plus a root layout
 * server load returning `{ session: null }`, the shape every generated app has: it shows how
 * much of ours' gap to the floor is SvelteKit's layout load rather than auth.
 * @type {ReadonlySet<AppName>}
 */
export const WITHOUT_AUTH = new Set(['floor', 'floor-layout']);

/**
 * Apps made by the CLI, and the arguments of `create-auth --yes --no-install` for each.
 * `ours-idp` signs in with `idp` at a dev IdP (bench/idp.js); `credentials` is there too, as in
 * any app that has both. The PostgreSQL apps also get `--database-url` of a database made for
 * each (prepareApp).
 * @type {Partial<Record<AppName, string[]>>}
 */
const CLI_ARGS = {
	ours: ['--providers', 'credentials'],
	'ours-0.1.0': ['--providers', 'credentials'],
	'ours-direct': ['--providers', 'credentials'],
	'ours-idp': ['--providers', 'credentials,idp'],
	'ours-db-sqlite': ['--providers', 'credentials', '--strategy', 'database', '--adapter', 'sqlite'],
	'ours-db-postgres': ['--providers', 'credentials', '--strategy', 'database', '--adapter', 'postgres'],
	'ours-db-postgres-cache': ['--providers', 'credentials', '--strategy', 'database', '--adapter', 'postgres']
};

/**
 * Apps set up by an earlier release of create-auth instead of this one (e2e/harness/release.js):
 * `ours-0.1.0` is `ours` as the release before issue 27's reshape writes it, so a run shows the
 * per-request cost of the two side by side.
 * @type {Partial<Record<AppName, string>>}
 */
const CLI_RELEASES = { 'ours-0.1.0': PRE_RESHAPE };

/**
 * Apps measured only when named with `--app`: the earlier releases', and `ours-direct`.
 * @type {ReadonlySet<AppName>}
 */
export const ON_REQUEST = new Set(['ours-0.1.0', 'ours-direct']);

/**
 * Apps built from a fixture of their own instead of their major's (Kit 2 only: Better Auth's
 * peer range stops at SvelteKit 2).
 * @type {Partial<Record<AppName, string>>}
 */
const OWN_FIXTURE = { 'better-auth': 'kit2-better-auth', 'better-auth-cache': 'kit2-better-auth' };

/**
 * sv's `drizzle.config.ts` has `strict: true`, which makes `drizzle-kit push` ask before it
 * creates tables; without a terminal it exits 0 having created nothing.
 */
const DRIZZLE_NOT_STRICT = { file: 'drizzle.config.ts', from: 'strict: true', to: 'strict: false' };

/**
 * Edits of an app's files after the CLI (the generated `src/auth.ts`, Better Auth's config): each
 * replaces its `from` text, which must be there, by `to`.
 * @type {Partial<Record<AppName, { file: string, from: string, to: string }[]>>}
 */
const CONFIG_EDITS = {
	// `ours` with its two handles composed directly instead of by SvelteKit's sequence() (which the
	// spec asks for, and which wraps each handle in a span, a request store and an async
	// transformPageChunk): what sequence() costs, measured, not a shape create-auth writes.
	'ours-direct': [
		{ file: 'src/hooks.server.ts', from: "import { sequence } from '@sveltejs/kit/hooks';\n", to: '' },
		{
			file: 'src/hooks.server.ts',
			from: 'export const handle = sequence(authentication, authorization);',
			to: 'export const handle = ({ event, resolve }) => authentication({ event, resolve: (event) => authorization({ event, resolve }) });'
		}
	],
	'ours-db-postgres-cache': [{ file: 'src/auth.ts', from: 'cacheMaxAge: 0', to: 'cacheMaxAge: 5' }],
	'better-auth': [DRIZZLE_NOT_STRICT],
	'better-auth-cache': [
		DRIZZLE_NOT_STRICT,
		{
			file: 'src/lib/server/auth.ts',
			from: 'emailAndPassword: { enabled: true },',
			to: 'emailAndPassword: { enabled: true },\n\tsession: { cookieCache: { enabled: true, maxAge: 5 * 60 } },'
		}
	]
};

/**
 * Better Auth's apps: after the install, `npm run auth:schema` (Better Auth's CLI writes its
 * Drizzle schema) and `npm run db:push` (drizzle-kit makes the tables), as sv's next steps say.
 * @type {ReadonlySet<AppName>}
 */
export const BETTER_AUTH = new Set(['better-auth', 'better-auth-cache']);

/** Apps with a PostgreSQL database of their own. */
const ON_POSTGRES = new Set(['ours-db-postgres', 'ours-db-postgres-cache']);

/**
 * Apps that sign in with the credentials provider (sign up, then sign in): all of ours but
 * `ours-idp`.
 * @type {ReadonlySet<AppName>}
 */
export const WITH_CREDENTIALS = new Set(['ours', 'ours-0.1.0', 'ours-direct', 'ours-db-sqlite', 'ours-db-postgres', 'ours-db-postgres-cache']);

/**
 * Apps served with a dev IdP's client in their environment, and signed in there.
 * @type {ReadonlySet<AppName>}
 */
export const WITH_IDP = new Set(['ours-idp']);

/**
 * Folders of `bench/apps/` copied over each app, in order: `all` (adapter-node, `/public`,
 * the `/protected` page's markup), `with-auth` (the `/protected` load that calls
 * `locals.auth()`, shared by ours and Auth.js), then the app's own folder (`ours-idp` has ours';
 * Better Auth's apps have `better-auth`: a `/protected` load reading the `locals.user` its hook
 * set, and a root layout load handing it to pages, as every create-auth app has).
 * @type {Record<AppName, string[]>}
 */
const LAYERS = {
	floor: ['all', 'floor'],
	'floor-layout': ['all', 'floor', 'floor-layout'],
	ours: ['all', 'with-auth', 'ours'],
	'better-auth': ['all', 'better-auth'],
	'better-auth-cache': ['all', 'better-auth'],
	'ours-0.1.0': ['all', 'with-auth', 'ours'],
	'ours-direct': ['all', 'with-auth', 'ours'],
	'ours-idp': ['all', 'with-auth', 'ours'],
	'ours-db-sqlite': ['all', 'with-auth', 'ours'],
	'ours-db-postgres': ['all', 'with-auth', 'ours'],
	'ours-db-postgres-cache': ['all', 'with-auth', 'ours'],
	authjs: ['all', 'with-auth', 'authjs']
};

/** @typedef {2 | 3} KitMajor */

/**
 * @typedef {object} KitSetup
 * @property {string} fixture  folder under e2e/fixtures/
 * @property {Record<string, string>} adapter  devDependency added to the fixture's package.json
 * @property {AppName[]} apps  the apps built on this major
 * @property {Partial<Record<AppName, string>>} unsupported  apps left out, and why (in the report)
 * @property {(url: string) => string} selfOrigin  the origin a built app served at `url` sees
 *   itself at: adapter-node 5 takes it from the `ORIGIN` variable the harness sets; adapter-node 6
 *   has no `ORIGIN` and, without `PROTOCOL_HEADER`, assumes https (TLS ended by a proxy), so form
 *   POSTs must carry `Origin: https://…` to pass SvelteKit's CSRF check
 */

/** @type {Record<KitMajor, KitSetup>} */
export const KITS = {
	2: {
		fixture: 'kit2-ts',
		adapter: { '@sveltejs/adapter-node': '^5' },
		// SQLite database sessions on both majors, to match Better Auth's row; PostgreSQL on the
		// current major only: its adapter code is the same on both.
		apps: ['floor', 'floor-layout', 'ours', 'ours-0.1.0', 'ours-direct', 'ours-idp', 'ours-db-sqlite', 'authjs', 'better-auth', 'better-auth-cache'],
		unsupported: {},
		selfOrigin: (url) => new URL(url).origin
	},
	3: {
		fixture: 'kit3-ts',
		adapter: { '@sveltejs/adapter-node': '^6.0.1' },
		apps: ['floor', 'floor-layout', 'ours', 'ours-0.1.0', 'ours-direct', 'ours-idp', 'ours-db-sqlite', 'ours-db-postgres', 'ours-db-postgres-cache'],
		unsupported: {
			authjs: 'not supported: @auth/sveltekit 1.x declares @sveltejs/kit ^1.0.0 || ^2.0.0',
			'better-auth': 'not supported: better-auth declares @sveltejs/kit ^2.0.0',
			'better-auth-cache': 'not supported: better-auth declares @sveltejs/kit ^2.0.0'
		},
		selfOrigin: (url) => new URL(url).origin.replace(/^http:/, 'https:')
	}
};

/** @type {KitMajor[]} */
export const KIT_MAJORS = [2, 3];

/**
 * `kit3/ours`: an app's key in the results.
 * @param {KitMajor} kit
 * @param {AppName} name
 */
export const appId = (kit, name) => `kit${kit}/${name}`;

/**
 * The Node binary and the environment that install, build and serve the apps: Node 22 from
 * node22(), for both majors (see the top of this file).
 * @returns {Promise<{ node: string, version: string, env: Record<string, string> | undefined }>}
 *   `version`: `node -v` of that binary, e.g. `'v22.23.3'`
 */
export async function toolchain() {
	const { node, version, env } = await node22();
	return { node, version, env };
}

const AUTHJS = { '@auth/sveltekit': '^1' };

/** The account every app signs in with (Auth.js's authorize() accepts only this one). */
export const DEMO = { email: 'demo@example.com', password: 'correct horse battery staple' };

/**
 * @typedef {object} App
 * @property {AppName} name
 * @property {KitMajor} kit
 * @property {string} id  `kit<major>/<name>`
 * @property {string} node  the Node binary that serves it
 * @property {string} nodeVersion  its `node -v`
 * @property {string} dir  absolute path of the app
 * @property {Record<string, string>} env  the app's `.env` (adapter-node does not read it), plus
 *   its dev IdP's values for `ours-idp` (bench/idp.js)
 * @property {number} [port]  the port it must be served on, when fixed: `ours-idp`'s IdP has
 *   its callback URL on that port (bench/idp.js); otherwise a free one each time
 * @property {Record<string, string>} versions  installed versions of the packages that matter
 * @property {() => Promise<void>} remove  drop its database (the PostgreSQL apps), delete the app
 *   folder (kept for `--keep` apps)
 */

/**
 * Copy the kit's fixture, apply the CLI (ours*) and the layers, install, build;
 * the PostgreSQL apps first get a database of their own on the machine's PostgreSQL
 * (e2e/harness/databases.js), and its tables after the install. On failure, nothing is left.
 * With `keep`, the app lives in `<tmpdir>/create-auth-e2e-bench-kit<major>-<name>` and survives
 * the run; a later `keep` run starts from a fresh fixture copy there but reuses its
 * `node_modules` (npm install then has little to do; better-sqlite3 is not compiled again).
 * @param {KitMajor} kit
 * @param {AppName} name
 * @param {{ keep: boolean, log: (line: string) => void }} options
 * @returns {Promise<App>}
 */
export async function prepareApp(kit, name, { keep, log }) {
	const id = appId(kit, name);
	const fixture = OWN_FIXTURE[name] ?? KITS[kit].fixture;
	const { node, version: nodeVersion, env: toolEnv } = await toolchain();
	const dir = keep ? await freshKeptCopy(fixture, id) : await copyFixture(fixture);
	log(`${id}: ${dir}`);
	const database = ON_POSTGRES.has(name) ? await postgresDatabase('bench') : undefined;
	const remove = async () => {
		await database?.drop();
		if (!keep) await removeApp(dir);
	};
	try {
		await setUp(dir, name, { kit, node, toolEnv, databaseUrl: database?.url, log: (line) => log(`${id}: ${line}`) });
	} catch (error) {
		await remove();
		throw error;
	}
	const envFile = path.join(dir, '.env');
	const env = existsSync(envFile) ? /** @type {Record<string, string>} */ (parseEnv(await fs.readFile(envFile, 'utf8'))) : {};
	return { name, kit, id, node, nodeVersion, dir, env, versions: await versions(dir), remove };
}

/**
 * The CLI (ours, with `--database-url` when given) and its config edits, the layers, the adapter, install, the
 * auth tables (`create-auth migrate`, when a database URL is given), build.
 * @param {string} dir
 * @param {AppName} name
 * @param {{ kit: KitMajor, node: string, toolEnv: Record<string, string> | undefined, databaseUrl: string | undefined, log: (line: string) => void }} options
 */
async function setUp(dir, name, { kit, node, toolEnv, databaseUrl, log }) {
	const cliArgs = CLI_ARGS[name];
	if (cliArgs) {
		const args = ['--yes', ...cliArgs, ...(databaseUrl ? ['--database-url', databaseUrl] : []), '--no-install'];
		const release = CLI_RELEASES[name];
		const cli = await runCli(dir, args, { node, env: toolEnv, ...(release ? { bin: releaseBin(release) } : {}) });
		if (cli.exitCode !== 0) throw new Error(`create-auth ${release ?? ''} failed in ${dir}:\n${cli.stdout}\n${cli.stderr}`);
	}
	for (const edit of CONFIG_EDITS[name] ?? []) {
		const file = path.join(dir, edit.file);
		const config = await fs.readFile(file, 'utf8');
		if (!config.includes(edit.from)) throw new Error(`${file} has no "${edit.from}" to edit`);
		await fs.writeFile(file, config.replace(edit.from, edit.to));
	}
	for (const layer of LAYERS[name]) {
		await fs.cp(path.join(repoRoot, 'bench', 'apps', layer), dir, { recursive: true, force: true });
	}
	await editPackageJson(dir, { devDependencies: KITS[kit].adapter, dependencies: name === 'authjs' ? AUTHJS : {} });
	if (name === 'authjs') {
		await fs.writeFile(path.join(dir, '.env'), `AUTH_SECRET=${randomBytes(32).toString('base64url')}\n`);
	}
	log('npm install');
	await install(dir, { env: toolEnv });
	// sv's next steps for Better Auth: its Drizzle schema (the fixture has a placeholder), then its tables.
	for (const script of BETTER_AUTH.has(name) ? ['auth:schema', 'db:push'] : []) {
		log(`npm run ${script}`);
		const step = await run('npm', ['run', script], { cwd: dir, env: toolEnv, timeout: 120_000 });
		if (step.exitCode !== 0) throw new Error(`npm run ${script} failed in ${dir}:\n${step.stdout}\n${step.stderr}`);
	}
	if (databaseUrl) {
		log('create-auth migrate');
		const migrate = await runCli(dir, ['migrate'], { node, env: toolEnv });
		if (migrate.exitCode !== 0) throw new Error(`create-auth migrate failed in ${dir}:\n${migrate.stdout}\n${migrate.stderr}`);
	}
	log('vite build');
	await build(dir, { env: toolEnv });
}

/**
 * Times the CLI on fresh copies of the kit's fixture (the copy is not timed), run by the kit's
 * Node: `create-auth --yes --no-install`, then in the same app a no-op `regenerate` (same
 * version, same answers: nothing to write) and `add-provider github --no-install`.
 * @param {KitMajor} kit
 * @param {number} times
 * @returns {Promise<{ init: number[], regenerate: number[], addProvider: number[] }>} wall-clock
 *   milliseconds, process start to exit, one per copy
 */
export async function timeCli(kit, times) {
	const { node } = await toolchain();
	/** @type {{ init: number[], regenerate: number[], addProvider: number[] }} */
	const durations = { init: [], regenerate: [], addProvider: [] };
	for (let i = 0; i < times; i++) {
		const dir = await copyFixture(KITS[kit].fixture);
		try {
			for (const [key, args] of /** @type {const} */ ([
				['init', ['--yes', '--no-install']],
				['regenerate', ['regenerate', '--no-install']],
				['addProvider', ['add-provider', 'github', '--no-install']]
			])) {
				const cli = await runCli(dir, [...args], { timeout: 60_000, node });
				if (cli.exitCode !== 0) throw new Error(`create-auth ${args.join(' ')} failed in ${dir}:\n${cli.stdout}\n${cli.stderr}`);
				if (key === 'regenerate' && !cli.stdout.includes('Nothing to write')) throw new Error(`the no-op regenerate wrote:\n${cli.stdout}`);
				durations[key].push(cli.durationMs);
			}
		} finally {
			await removeApp(dir);
		}
	}
	return durations;
}

/**
 * `<tmpdir>/create-auth-e2e-bench-kit<major>-<name>` emptied and refilled with the fixture,
 * keeping its `node_modules` if it had one.
 * @param {string} fixture
 * @param {string} id  `kit<major>/<name>`
 */
async function freshKeptCopy(fixture, id) {
	const dir = path.join(os.tmpdir(), `create-auth-e2e-bench-${id.replace('/', '-')}`);
	const modules = `${dir}.node_modules`;
	if (existsSync(path.join(dir, 'node_modules'))) {
		await fs.rm(modules, { recursive: true, force: true });
		await fs.rename(path.join(dir, 'node_modules'), modules);
	}
	await fs.rm(dir, { recursive: true, force: true });
	await copyFixture(fixture, { dest: dir });
	if (existsSync(modules)) await fs.rename(modules, path.join(dir, 'node_modules'));
	return dir;
}

/**
 * @param {string} dir
 * @param {{ devDependencies: Record<string, string>, dependencies: Record<string, string> }} added
 */
async function editPackageJson(dir, added) {
	const file = path.join(dir, 'package.json');
	const pkg = JSON.parse(await fs.readFile(file, 'utf8'));
	pkg.devDependencies = { ...pkg.devDependencies, ...added.devDependencies };
	if (Object.keys(added.dependencies).length > 0) pkg.dependencies = { ...pkg.dependencies, ...added.dependencies };
	await fs.writeFile(file, `${JSON.stringify(pkg, null, '\t')}\n`);
}

/** @param {string} dir */
async function versions(dir) {
	/** @type {Record<string, string>} */
	const found = {};
	for (const name of ['@sveltejs/kit', '@sveltejs/adapter-node', 'svelte', 'vite', '@auth/sveltekit', '@auth/core', 'better-auth', 'better-sqlite3', 'jose']) {
		const file = path.join(dir, 'node_modules', name, 'package.json');
		if (existsSync(file)) found[name] = JSON.parse(await fs.readFile(file, 'utf8')).version;
	}
	return found;
}
