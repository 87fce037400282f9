import { describe, expect, it } from 'vitest';
import { planLuciaSwitch } from './lucia.js';
import { switchFixture } from '../test/switch-fixture.js';

/** The fixture as the switch reads it, with `src/` files changed or added. */
const fixture = (changes: Record<string, string> = {}) => switchFixture('kit2-lucia', 'lucia', changes);

describe('planLuciaSwitch', () => {
	it("on sv's Lucia app: credentials on the app's Drizzle db with database sessions; its hook, Locals types, module, demo and oslo packages go, argon2 stays", async () => {
		const { project, sources, library } = await fixture();
		const plan = planLuciaSwitch(project, undefined, library, sources, {});
		expect(plan.blockers).toEqual([]);
		expect(plan.answers).toEqual({ providers: ['credentials'], strategy: 'database', adapter: 'drizzle', protect: ['/account'], rateLimit: 'memory', previous: ['lucia'] });
		expect(plan.dialect).toBe('sqlite');
		expect(Object.keys(plan.edits).sort()).toEqual([
			'package.json',
			'src/app.d.ts',
			'src/hooks.server.ts',
			'src/lib/server/auth.ts',
			'src/routes/demo/lucia/+page.server.ts',
			'src/routes/demo/lucia/+page.svelte',
			'src/routes/demo/lucia/login/+page.server.ts',
			'src/routes/demo/lucia/login/+page.svelte'
		]);
		expect(plan.edits['src/lib/server/auth.ts']).toBeUndefined();
		// The hook, `handle = handleAuth` and the imports only they used: nothing is left.
		expect(plan.edits['src/hooks.server.ts']).toBe('');
		const types = plan.edits['src/app.d.ts']!;
		expect(types).not.toContain('$lib/server/auth');
		expect(types).toContain('interface Locals {');
		expect(types).toContain('// interface PageData {}');
		const packageJson = JSON.parse(plan.edits['package.json']!) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
		expect(packageJson.devDependencies).not.toHaveProperty('@oslojs/crypto');
		expect(packageJson.devDependencies).not.toHaveProperty('@oslojs/encoding');
		expect(packageJson.dependencies).toHaveProperty('@node-rs/argon2');
		expect(packageJson.devDependencies).toHaveProperty('drizzle-orm');
		expect(plan.left).toContain('src/routes/demo/+page.svelte links to /demo/lucia, deleted here.');
		for (const line of [...plan.carried, ...plan.left]) expect(line.length).toBeLessThanOrEqual(76);
	});

	it('keeps an oslo package that app code still imports', async () => {
		const { project, sources, library } = await fixture({ 'src/lib/ids.ts': "import { encodeBase32LowerCase } from '@oslojs/encoding';\nexport const id = () => encodeBase32LowerCase(crypto.getRandomValues(new Uint8Array(15)));\n" });
		const plan = planLuciaSwitch(project, undefined, library, sources, {});
		const packageJson = JSON.parse(plan.edits['package.json']!) as { devDependencies: Record<string, string> };
		expect(packageJson.devDependencies).toHaveProperty('@oslojs/encoding');
		expect(packageJson.devDependencies).not.toHaveProperty('@oslojs/crypto');
	});

	it("refuses while app code still imports Lucia's module or reads what its hook set, naming each file", async () => {
		const { project, sources, library } = await fixture({
			'src/routes/admin/+page.server.ts': "import * as auth from '$lib/server/auth';\nexport const actions = { out: async (event) => auth.invalidateSession(event.locals.session.id) };\n",
			'src/routes/+layout.server.ts': 'export const load = ({ locals }) => ({ user: locals.user });\n'
		});
		const plan = planLuciaSwitch(project, undefined, library, sources, {});
		expect([...plan.blockers].sort()).toEqual([
			"src/routes/+layout.server.ts reads locals.user or locals.session, which Lucia's hook set: read (await locals.auth())?.user instead.",
			"src/routes/admin/+page.server.ts still imports Lucia's $lib/server/auth: move it to create-auth (locals.auth(), the signIn / signOut actions) first."
		]);
	});

	it('refuses the lucia package (v2/v3), an app without Drizzle, and a create-auth that keeps its users elsewhere', async () => {
		const { project, sources, library } = await fixture({ 'src/lib/server/lucia.ts': "import { Lucia } from 'lucia';\nexport const lucia = new Lucia(adapter);\n" });
		const { drizzle: _drizzle, ...withoutDrizzle } = project;
		const manifest = { answers: { providers: ['credentials'], strategy: 'database', adapter: 'sqlite', protect: [], rateLimit: 'memory' } } as never;
		const plan = planLuciaSwitch(withoutDrizzle, manifest, library, sources, {});
		expect(plan.blockers).toEqual([
			"The app uses the lucia package (v2/v3), whose sessions are stored another way: the switch moves apps made after Lucia's guide (sv add lucia).",
			"The switch moves Lucia apps whose database the app's Drizzle db reaches (as sv sets them up); this app has no Drizzle setup.",
			"create-auth keeps its users here with the sqlite adapter, not in the Drizzle database Lucia's users are copied to: set it up with --adapter drizzle first."
		]);
	});

	it('keeps the JWT strategy when asked for it', async () => {
		const { project, sources, library } = await fixture();
		expect(planLuciaSwitch(project, undefined, library, sources, { strategy: 'jwt' }).answers.strategy).toBe('jwt');
	});
});
