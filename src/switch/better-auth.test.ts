import { describe, expect, it } from 'vitest';
import { planBetterAuthSwitch, readBetterAuthOptions } from './better-auth.js';
import { switchFixture } from '../test/switch-fixture.js';

/** The fixture as the switch reads it, with `src/` files changed or added. */
const fixture = (changes: Record<string, string> = {}) => switchFixture('kit2-better-auth', 'better-auth', changes);

describe('planBetterAuthSwitch', () => {
	it("on sv's Better Auth app: credentials on the app's Drizzle db with database sessions; its hook, types, packages, module and demo go", async () => {
		const { project, sources, library } = await fixture();
		const plan = planBetterAuthSwitch(project, undefined, library, sources, {});
		expect(plan.blockers).toEqual([]);
		expect(plan.answers).toEqual({ providers: ['credentials'], strategy: 'database', adapter: 'drizzle', protect: ['/account'], rateLimit: 'memory', previous: ['better-auth'] });
		expect(plan.dialect).toBe('sqlite');
		expect(Object.keys(plan.edits).sort()).toEqual([
			'package.json',
			'src/app.d.ts',
			'src/hooks.server.ts',
			'src/lib/server/auth.ts',
			'src/routes/demo/better-auth/+page.server.ts',
			'src/routes/demo/better-auth/+page.svelte',
			'src/routes/demo/better-auth/login/+page.server.ts',
			'src/routes/demo/better-auth/login/+page.svelte'
		]);
		expect(plan.edits['src/lib/server/auth.ts']).toBeUndefined();
		expect(plan.edits['src/hooks.server.ts']).toBe('');
		expect(plan.edits['src/app.d.ts']).not.toContain('better-auth');
		const packageJson = JSON.parse(plan.edits['package.json']!) as { devDependencies: Record<string, string>; scripts: Record<string, string> };
		expect(packageJson.devDependencies).not.toHaveProperty('better-auth');
		expect(packageJson.devDependencies).not.toHaveProperty('auth');
		expect(packageJson.devDependencies).toHaveProperty('drizzle-orm');
		expect(packageJson.scripts).not.toHaveProperty('auth:schema');
		expect(packageJson.scripts).toHaveProperty('db:push');
		expect(plan.left).toContain('src/routes/demo/+page.svelte links to /demo/better-auth, deleted here.');
		for (const line of [...plan.carried, ...plan.left]) expect(line.length).toBeLessThanOrEqual(72);
	});

	it('refuses while app code still imports Better Auth or reads what its hook set, naming each file', async () => {
		const { project, sources, library } = await fixture({
			'src/routes/admin/+page.server.ts': "import { auth } from '$lib/server/auth';\nexport const load = async ({ request }) => ({ session: await auth.api.getSession({ headers: request.headers }) });\n",
			'src/routes/+layout.server.ts': 'export const load = ({ locals }) => ({ user: locals.user });\n'
		});
		const plan = planBetterAuthSwitch(project, undefined, library, sources, {});
		expect([...plan.blockers].sort()).toEqual([
			'src/routes/+layout.server.ts reads locals.user or locals.session, which Better Auth\'s hook set: read (await locals.auth())?.user instead.',
			'src/routes/admin/+page.server.ts still uses Better Auth: move it to create-auth (locals.auth(), the signIn / signOut actions) first.'
		]);
	});

	it("refuses an app whose Better Auth data the app's Drizzle db does not reach, or whose create-auth keeps users elsewhere", async () => {
		const { project, sources, library } = await fixture();
		const withoutDrizzle = planBetterAuthSwitch({ ...project, drizzle: undefined }, undefined, library, sources, {});
		expect(withoutDrizzle.blockers).toEqual([expect.stringContaining('this app has no Drizzle setup')]);
		const manifest = { version: '0.2.0', answers: { providers: ['github'], strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' }, files: {}, pending: [] } as const;
		const beside = planBetterAuthSwitch(project, structuredClone(manifest) as never, library, sources, {});
		expect(beside.blockers).toEqual([expect.stringContaining('with the sqlite adapter')]);
		// The recorded answers are kept, with Better Auth's sign-in methods added.
		expect(beside.answers.providers).toEqual(['github', 'credentials']);
		expect(beside.answers.strategy).toBe('jwt');
	});

	it('maps social providers create-auth has, refuses the others and plugins that change sign-in, and keeps a chosen strategy', async () => {
		const config = `import { betterAuth } from 'better-auth';
import { twoFactor } from 'better-auth/plugins';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { db } from '$lib/server/db';
export const auth = betterAuth({
	database: drizzleAdapter(db, { provider: 'pg' }),
	emailAndPassword: { enabled: true },
	socialProviders: { github: { clientId: '', clientSecret: '' }, discord: { clientId: '', clientSecret: '' } },
	plugins: [twoFactor()]
});
`;
		const { project, sources, library } = await fixture({ 'src/lib/server/auth.ts': config });
		const plan = planBetterAuthSwitch(project, undefined, library, sources, { strategy: 'jwt' });
		expect(plan.answers.providers).toEqual(['credentials', 'github']);
		expect(plan.answers.strategy).toBe('jwt');
		expect(plan.dialect).toBe('postgres');
		expect(plan.blockers).toEqual([
			'Better Auth signs users in with discord, and create-auth has no discord provider: those users could not sign in.',
			"Better Auth's twoFactor plugin has no counterpart that the switch can carry over."
		]);
	});
});

describe('readBetterAuthOptions', () => {
	it('reads the dialect from drizzleAdapter, better-sqlite3, pg and mysql2', () => {
		const dialect = (database: string) => readBetterAuthOptions(`export const auth = betterAuth({ database: ${database} });`)?.dialect;
		expect(dialect("drizzleAdapter(db, { provider: 'sqlite' })")).toBe('sqlite');
		expect(dialect("drizzleAdapter(db, { provider: 'mysql' })")).toBe('mysql');
		expect(dialect("new Database('sqlite.db')")).toBe('sqlite');
		expect(dialect('new pg.Pool({ connectionString })')).toBe('postgres');
		expect(dialect('createPool(url)')).toBe('mysql');
		expect(dialect('someOtherAdapter()')).toBeUndefined();
		expect(readBetterAuthOptions('export const x = 1;')).toBeUndefined();
	});
});
