import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hash } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SQLiteAdapter } from '../../runtime/server/auth/adapters/sqlite.js';
import { authorizeWithPassword } from '../../runtime/server/auth/passwords/accounts.js';
import { storedSessionKey } from '../../runtime/server/auth/session/stored-key.js';
import { parseModule } from '../edits/ast.js';
import { GUIDE_CONFIG, GUIDE_FILES, GUIDE_OIDC_CONFIG, GUIDE_PG_CONFIG } from '../test/authjs-guide.js';
import { captureStdout } from '../test/stdout.js';
import { regenerate } from './regenerate.js';
import { switchApp } from './switch.js';

// `create-auth switch` as the binary runs it, in this process, on copies of the fixture made by
// `sv add drizzle better-auth` (sv 0.17.1). The e2e test (e2e/switch-better-auth.test.ts) runs it
// in a built app with a browser; here: the plan, the refusals, the rollback, and one whole run
// over the repository's own node_modules (drizzle-kit, better-sqlite3).
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const fixturePath = (name: string) => path.join(repoRoot, 'e2e/fixtures', name);
const stdout = captureStdout();

async function appFrom(fixture: string): Promise<string> {
	const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-switch-'));
	onTestFinished(() => rm(dir, { recursive: true, force: true }));
	await cp(fixturePath(fixture), dir, { recursive: true });
	return dir;
}

/** Every file below `root` (node_modules aside) with its text and modification time. */
async function snapshot(root: string): Promise<Record<string, { text: string; mtime: number }>> {
	const out: Record<string, { text: string; mtime: number }> = {};
	for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
		const file = path.join(entry.parentPath, entry.name);
		if (!entry.isFile() || path.relative(root, file).startsWith('node_modules')) continue;
		out[path.relative(root, file)] = { text: await readFile(file, 'utf8'), mtime: (await stat(file)).mtimeMs };
	}
	return out;
}

const SECRET = 'fe8e109e-9221-4ad1-9746-9891d8bf4c95';

/** Better Auth's tables in the app's local.db, made by Better Auth itself, with one user signed up. */
async function signUpWithBetterAuth(app: string) {
	const db = new Database(path.join(app, 'local.db'));
	onTestFinished(() => void db.close());
	const auth = betterAuth({ database: db, secret: SECRET, baseURL: 'http://localhost:5173', emailAndPassword: { enabled: true }, logger: { disabled: true } });
	await (await getMigrations(auth.options)).runMigrations();
	const response = await auth.api.signUpEmail({ body: { email: 'ann@example.com', password: 'correct horse battery staple', name: 'Ann' }, returnHeaders: true });
	const cookie = /better-auth\.session_token=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![1]!;
	return { db, id: response.response.user.id, token: decodeURIComponent(cookie).split('.')[0]! };
}

/** Lucia's tables in the app's local.db as sv's schema declares them, with a user registered and signed in as its demo does. */
async function registerWithLucia(app: string) {
	const db = new Database(path.join(app, 'local.db'));
	onTestFinished(() => void db.close());
	db.exec(`CREATE TABLE "user" (id TEXT PRIMARY KEY, age INTEGER, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL);
		CREATE TABLE "session" (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES "user"(id), expires_at INTEGER NOT NULL);`);
	const passwordHash = await hash('correct horse battery staple', { memoryCost: 19456, timeCost: 2, outputLen: 32, parallelism: 1 });
	db.prepare(`INSERT INTO "user" (id, username, password_hash) VALUES ('lucia1', 'ada', ?)`).run(passwordHash);
	const token = 'Kc5EakGPecrxKA2nIy3HMpDK';
	db.prepare(`INSERT INTO "session" VALUES (?, 'lucia1', ?)`).run(createHash('sha256').update(token).digest('hex'), Math.floor(Date.now() / 1000) + 30 * 86_400);
	return { db, id: 'lucia1', token };
}

/** A SvelteKit 2 app (sv's kit2-ts) with Auth.js set up as its SvelteKit guide does (authjs.dev/reference/sveltekit). */
async function authjsApp(): Promise<string> {
	const app = await appFrom('kit2-ts');
	const write = async (file: string, text: string) => {
		await mkdir(path.dirname(path.join(app, file)), { recursive: true });
		await writeFile(path.join(app, file), text);
	};
	for (const [file, text] of Object.entries(GUIDE_FILES)) await write(file, text);
	const packageJson = JSON.parse(await readFile(path.join(app, 'package.json'), 'utf8'));
	packageJson.dependencies = { '@auth/sveltekit': '^1.11.1' };
	await writeFile(path.join(app, 'package.json'), `${JSON.stringify(packageJson, null, '\t')}\n`);
	await writeFile(path.join(app, '.env'), 'AUTH_SECRET="an Auth.js secret of at least 32 characters"\nAUTH_GITHUB_ID=gh-id\nAUTH_GITHUB_SECRET=gh-secret\n');
	return app;
}

describe('create-auth switch', { timeout: 60_000 }, () => {
	it("switches an app from Auth.js (its guide's shape): create-auth's config with GitHub, its callbacks, session lifetime and sessions; its pages and components moved over", async () => {
		const app = await authjsApp();
		await writeFile(path.join(app, 'src/auth.ts'), GUIDE_CONFIG.replace('  trustHost: true,\n', '  trustHost: true,\n  session: { maxAge: 7 * 24 * 60 * 60 },\n'));
		await symlink(path.join(repoRoot, 'node_modules'), path.join(app, 'node_modules'), 'dir');
		expect(await switchApp({ cwd: app, install: false })).toBe(0);
		const read = (file: string) => readFile(path.join(app, file), 'utf8');
		const auth = await read('src/auth.ts');
		expect(auth).toContain("import { authjsSessions } from '$lib/server/auth/switch/authjs';");
		expect(auth).toContain('previousSessions: [authjsSessions()],\n\t\tcallbacks: {\n\t\t\tjwt({ token, profile }) {');
		expect(auth).toContain("session: { strategy: 'jwt', maxAge: 7 * 24 * 60 * 60 }");
		expect(auth).toContain('const github = GitHub({ clientId: env.AUTH_GITHUB_ID, clientSecret: env.AUTH_GITHUB_SECRET });');
		expect(parseModule(auth)).toBeDefined();
		expect(await read('src/hooks.server.ts')).toContain('export const handle = sequence(authentication, authorization);');
		expect(await read('src/routes/+page.svelte')).toContain('import { SignIn, SignOut } from "$lib/auth"');
		expect(await read('src/routes/signin/+page.server.ts')).not.toBe('import { signIn } from "../../auth"\nimport type { Actions } from "./$types"\nexport const actions: Actions = { default: signIn }\n');
		expect(await read('.env')).toContain('AUTH_SECRET="an Auth.js secret of at least 32 characters"');
		// Auth.js's trustHost: true, as create-auth reads it: OAuth sign-in keeps working outside the dev server.
		expect(await read('.env')).toContain('AUTH_TRUST_HOST=true');
		expect(JSON.parse(await read('package.json')).dependencies).not.toHaveProperty('@auth/sveltekit');
		expect(JSON.parse(await read('.create-auth/manifest.json')).answers).toMatchObject({ providers: ['github'], strategy: 'jwt', previous: ['authjs'] });
		// The carried callbacks are the app's edit: a regenerate keeps them and writes nothing.
		stdout.clear();
		expect(await regenerate({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain('Nothing to write: the app is up to date.');
	});

	it("switches an Auth.js app whose OpenID Connect provider is written inline: create-auth's oidc provider with the same id and name, its settings moved to AUTH_OIDC_* in .env", async () => {
		const app = await authjsApp();
		await writeFile(path.join(app, 'src/auth.ts'), GUIDE_OIDC_CONFIG);
		await writeFile(path.join(app, '.env'), 'AUTH_SECRET="an Auth.js secret of at least 32 characters"\nAUTH_IDP_ISSUER=http://127.0.0.1:9999\nAUTH_IDP_ID=app\nAUTH_IDP_SECRET=app-secret\n');
		await symlink(path.join(repoRoot, 'node_modules'), path.join(app, 'node_modules'), 'dir');
		expect(await switchApp({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain('Its OpenID Connect provider idp: same callback URL, settings in AUTH_OIDC_*.');
		const read = (file: string) => readFile(path.join(app, file), 'utf8');
		const auth = await read('src/auth.ts');
		expect(auth).toContain("const oidc = OIDC({\n\tid: 'idp',\n\tname: 'Dev IdP',\n\tissuer: env.AUTH_OIDC_ISSUER,");
		expect(auth).toContain('`<app origin>/auth/callback/idp`');
		expect(auth).toContain('previousSessions: [authjsSessions()]');
		expect(parseModule(auth)).toBeDefined();
		const env = await read('.env');
		for (const line of ['AUTH_OIDC_ISSUER=http://127.0.0.1:9999', 'AUTH_OIDC_ID=app', 'AUTH_OIDC_SECRET=app-secret', 'AUTH_IDP_ISSUER=http://127.0.0.1:9999']) expect(env).toContain(line);
		expect(JSON.parse(await read('.create-auth/manifest.json')).answers).toMatchObject({ providers: ['oidc'], strategy: 'jwt', previous: ['authjs'] });
		stdout.clear();
		expect(await regenerate({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain('Nothing to write: the app is up to date.');
	});

	it("plans the switch of an Auth.js app with @auth/pg-adapter onto create-auth's PostgreSQL adapter, with database sessions and its rows copied after the install", async () => {
		const app = await authjsApp();
		await writeFile(path.join(app, 'src/auth.ts'), GUIDE_PG_CONFIG);
		const before = await snapshot(app);
		expect(await switchApp({ cwd: app, dryRun: true })).toBe(0);
		expect(stdout.text).toContain('create-auth takes its place: github; database sessions; postgres.');
		expect(stdout.text).toContain("Users, linked accounts and sessions, from @auth/pg-adapter's tables.");
		expect(stdout.text).toContain("Auth.js's tables stay, unused: drop them later.");
		expect(stdout.text).toContain("copy Auth.js (@auth/sveltekit)'s users, accounts and sessions into them.");
		expect(await snapshot(app)).toEqual(before);
		// Without an adapter Auth.js kept no rows: nothing to copy is announced.
		stdout.clear();
		expect(await switchApp({ cwd: await authjsApp(), dryRun: true })).toBe(0);
		expect(stdout.text).toContain('create-auth takes its place: github; jwt sessions;');
		expect(stdout.text).not.toContain('Then: create the auth tables');
	});

	it('--dry-run: says what it found, what carries over and what goes, and writes nothing', async () => {
		const app = await appFrom('kit2-better-auth');
		const before = await snapshot(app);
		expect(await switchApp({ cwd: app, dryRun: true })).toBe(0);
		expect(await snapshot(app)).toEqual(before);
		const text = stdout.text;
		expect(text).toContain('Better Auth is set up in this app:');
		expect(text).toContain('create-auth takes its place: credentials; database sessions; drizzle.');
		expect(text).toContain("Passwords: Better Auth's hashes, rehashed at each user's next sign-in.");
		expect(text).toContain('  src/routes/demo/better-auth/login/+page.server.ts');
		expect(text).toContain('- src/lib/server/auth.ts (deleted)');
		expect(text).toContain('+ src/lib/server/auth/switch/better-auth.ts (new');
		expect(text).toContain("copy Better Auth's users, accounts and sessions");
	});

	it('refuses while app code still uses Better Auth, naming the file, and writes nothing (E_SWITCH_BLOCKED); a dry run lists it and exits 1', async () => {
		const app = await appFrom('kit2-better-auth');
		await writeFile(path.join(app, 'src/routes/+layout.server.ts'), 'export const load = ({ locals }) => ({ user: locals.user });\n');
		const before = await snapshot(app);
		await expect(switchApp({ cwd: app, install: false })).rejects.toMatchObject({ code: 'E_SWITCH_BLOCKED', message: expect.stringContaining('src/routes/+layout.server.ts reads locals.user') });
		expect(await switchApp({ cwd: app, dryRun: true })).toBe(1);
		expect(stdout.text).toContain('The switch cannot run yet:');
		expect(await snapshot(app)).toEqual(before);
	});

	it('says so in an app without another library (E_NOTHING_TO_SWITCH), and for a library the app does not have (E_SWITCH_WHICH)', async () => {
		await expect(switchApp({ cwd: await appFrom('kit2-ts'), dryRun: true })).rejects.toMatchObject({ code: 'E_NOTHING_TO_SWITCH' });
		await expect(switchApp({ cwd: await appFrom('kit2-better-auth'), dryRun: true, from: 'lucia' })).rejects.toMatchObject({ code: 'E_SWITCH_WHICH' });
	});

	it('restores every file when the copy fails after the files were written (the database holds no Better Auth tables)', async () => {
		const app = await appFrom('kit2-better-auth');
		await symlink(path.join(repoRoot, 'node_modules'), path.join(app, 'node_modules'), 'dir');
		const texts = async () => Object.fromEntries(Object.entries(await snapshot(app)).map(([file, { text }]) => [file, text]));
		const before = await texts();
		await expect(switchApp({ cwd: app, install: false })).rejects.toMatchObject({ code: 'E_SWITCH_NO_TABLES' });
		const after = await texts();
		// drizzle-kit made the database file and create-auth's tables in it; every file of the app holds what it held (restored).
		delete after['local.db'];
		expect(after).toEqual(before);
	});

	it("switches: Better Auth's hook, module and demo go, create-auth is set up, and its user and session are in create-auth's tables", async () => {
		const app = await appFrom('kit2-better-auth');
		await symlink(path.join(repoRoot, 'node_modules'), path.join(app, 'node_modules'), 'dir');
		const ann = await signUpWithBetterAuth(app);
		expect(await switchApp({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain("Copied Better Auth's 1 users, 1 passwords, 0 linked accounts and 1 signed-in sessions into create-auth's tables.");
		const read = (file: string) => readFile(path.join(app, file), 'utf8').catch(() => undefined);
		expect(await read('src/lib/server/auth.ts')).toBeUndefined();
		expect(await read('src/routes/demo/better-auth/+page.server.ts')).toBeUndefined();
		const hooks = (await read('src/hooks.server.ts'))!;
		expect(hooks).not.toContain('svelteKitHandler');
		expect(hooks).toContain('export const handle = sequence(authentication, authorization);');
		expect(await read('src/auth.ts')).toContain('previousSessions: [betterAuthSessions({ secret: env.BETTER_AUTH_SECRET })]');
		expect(await read('src/auth.ts')).toContain("from '$lib/server/auth';");
		expect(await read('src/app.d.ts')).not.toContain('better-auth');
		expect(JSON.parse((await read('package.json'))!).devDependencies).not.toHaveProperty('better-auth');
		expect(await read('.env')).toContain(`BETTER_AUTH_SECRET="${SECRET}"`);
		const manifest = JSON.parse((await read('.create-auth/manifest.json'))!);
		expect(manifest.answers).toMatchObject({ providers: ['credentials'], strategy: 'database', adapter: 'drizzle', previous: ['better-auth'] });

		const adapter = SQLiteAdapter({ database: ann.db });
		expect(await adapter.getUserByEmail('ann@example.com')).toMatchObject({ id: ann.id, name: 'Ann' });
		expect((await adapter.getSessionAndUser(storedSessionKey(ann.token)))?.user.id).toBe(ann.id);

		// The switch is remembered: a regenerate keeps Better Auth's sessions honoured and writes nothing; there is nothing left to switch from.
		stdout.clear();
		expect(await regenerate({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain('Nothing to write: the app is up to date.');
		await expect(switchApp({ cwd: app, dryRun: true })).rejects.toMatchObject({ code: 'E_NOTHING_TO_SWITCH' });
	});

	it("switches from Lucia: its hook, module and demo go, create-auth is set up with Lucia's sessions, and its user signs in by username", async () => {
		const app = await appFrom('kit2-lucia');
		await symlink(path.join(repoRoot, 'node_modules'), path.join(app, 'node_modules'), 'dir');
		const ada = await registerWithLucia(app);
		expect(await switchApp({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain("Copied Lucia's 1 users, 1 passwords, 0 linked accounts and 1 signed-in sessions into create-auth's tables.");
		expect(stdout.text).toContain('Copied from local.db (Drizzle).');
		const read = (file: string) => readFile(path.join(app, file), 'utf8').catch(() => undefined);
		expect(await read('src/lib/server/auth.ts')).toBeUndefined();
		expect(await read('src/routes/demo/lucia/login/+page.server.ts')).toBeUndefined();
		const hooks = (await read('src/hooks.server.ts'))!;
		expect(hooks).not.toContain('validateSessionToken');
		expect(hooks).toContain('export const handle = sequence(authentication, authorization);');
		expect(await read('src/auth.ts')).toContain('previousSessions: [luciaSessions()]');
		expect(await read('src/app.d.ts')).not.toContain("import('$lib/server/auth')");
		const signIn = (await read('src/routes/signin/+page.svelte'))!;
		expect(signIn).toContain('Email or username');
		expect(signIn).toContain('<input name="email" type="text"');
		const packageJson = JSON.parse((await read('package.json'))!);
		expect(packageJson.devDependencies).not.toHaveProperty('@oslojs/crypto');
		expect(packageJson.dependencies).toHaveProperty('@node-rs/argon2');

		const adapter = SQLiteAdapter({ database: ada.db });
		expect(await authorizeWithPassword(adapter, { email: 'ada', password: 'correct horse battery staple' })).toMatchObject({ id: ada.id, name: 'ada' });
		expect((await adapter.getSessionAndUser(storedSessionKey(ada.token)))?.user.id).toBe(ada.id);

		stdout.clear();
		expect(await regenerate({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain('Nothing to write: the app is up to date.');
	});
});
