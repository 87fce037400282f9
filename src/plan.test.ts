import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { loadRuntime, loadTemplates, loadToolPackage, type TextFiles } from './assets.js';
import { MANIFEST_PATH, parseManifest } from './manifest.js';
import { planInit, type Plan, type PlanInput } from './plan.js';
import { detectProject, type Project } from './project.js';

const FIXTURE = fileURLToPath(new URL('../e2e/fixtures/kit2-ts', import.meta.url));
const SECRET = 'test-secret-0123456789-0123456789-abcdef';

let base: Omit<PlanInput, 'project'>;
let fixture: Project;

beforeAll(async () => {
	const [templates, runtime, tool] = await Promise.all([loadTemplates(), loadRuntime(), loadToolPackage()]);
	base = { answers: DEFAULT_ANSWERS, tool, templates, runtime, authSecret: SECRET };
	fixture = await detectProject(FIXTURE);
});

/** The project as it would be after writing the plan's operations. */
function applied(project: Project, plan: Plan): Project {
	const files = { ...project.files };
	let packageJson = project.packageJson;
	for (const op of plan.operations) {
		if (op.path === 'package.json') packageJson = op.content;
		else files[op.path] = op.content;
	}
	return { ...project, files, packageJson };
}

const paths = (plan: Plan) => plan.operations.map((op) => op.path);

describe('planInit on a fresh sv minimal TypeScript app', () => {
	it('writes the auth module, routes, hooks, layout load, types, env, runtime and manifest', () => {
		const plan = planInit({ ...base, project: fixture });
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

	it('vendors neither unit tests nor test stand-ins', () => {
		const plan = planInit({ ...base, project: fixture });
		expect(paths(plan).filter((p) => p.endsWith('.test.ts') || p.includes('/test/'))).toEqual([]);
	});

	it('puts the fresh secret in .env only, never in .env.example or the manifest', () => {
		const plan = planInit({ ...base, project: fixture });
		const content = (path: string) => plan.operations.find((op) => op.path === path)!.content;
		expect(content('.env')).toContain(`AUTH_SECRET=${SECRET}`);
		expect(content('.env.example')).toMatch(/^AUTH_SECRET=$/m);
		expect(content(MANIFEST_PATH)).not.toContain(SECRET);
	});

	it("declares the runtime's dependencies at create-auth's tested ranges", () => {
		const plan = planInit({ ...base, project: fixture });
		const pkg = JSON.parse(plan.operations.find((op) => op.path === 'package.json')!.content);
		expect(pkg.dependencies).toEqual({ 'better-sqlite3': base.tool.devDependencies['better-sqlite3'], jose: base.tool.devDependencies.jose });
		expect(pkg.devDependencies['@types/better-sqlite3']).toBe(base.tool.devDependencies['@types/better-sqlite3']);
	});

	it('renders the protected prefixes into the authorization handle', () => {
		const plan = planInit({ ...base, answers: { ...DEFAULT_ANSWERS, protect: ['/account', '/admin'] }, project: fixture });
		expect(plan.operations.find((op) => op.path === 'src/authorization.ts')!.content).toContain(
			"const protectedPrefixes: string[] = ['/account', '/admin'];"
		);
	});

	it('records the answers and, for owned files, the exact text written', () => {
		const plan = planInit({ ...base, project: fixture });
		const manifest = parseManifest(plan.operations.find((op) => op.path === MANIFEST_PATH)!.content)!;
		expect(manifest.version).toBe(base.tool.version);
		expect(manifest.answers).toEqual(DEFAULT_ANSWERS);
		const auth = manifest.files['src/auth.ts'];
		expect(auth).toEqual({ strategy: 'merge', content: plan.operations.find((op) => op.path === 'src/auth.ts')!.content });
		expect(manifest.files['src/lib/server/auth/kit.ts']?.strategy).toBe('managed');
		expect(manifest.files['.env']).toEqual({ strategy: 'patch', edits: ['AUTH_SECRET', 'AUTH_SQLITE_FILE'] });
	});
});

describe('planInit on an app that already has files', () => {
	it('plans zero writes when run again with the same version and answers', () => {
		const first = planInit({ ...base, project: fixture });
		const again = planInit({ ...base, authSecret: 'another-secret-another-secret-another', project: applied(fixture, first) });
		expect(again.operations).toEqual([]);
	});

	it("never overwrites a page the user already has, and doesn't claim it in the manifest", () => {
		const mine = '<h1>My own account page</h1>\n';
		const project = { ...fixture, files: { ...fixture.files, 'src/routes/account/+page.svelte': mine } };
		const plan = planInit({ ...base, project });
		expect(paths(plan)).not.toContain('src/routes/account/+page.svelte');
		expect(plan.skipped).toEqual([{ path: 'src/routes/account/+page.svelte', reason: 'already exists; left as is' }]);
		const manifest = parseManifest(plan.operations.find((op) => op.path === MANIFEST_PATH)!.content)!;
		expect(manifest.files['src/routes/account/+page.svelte']).toBeUndefined();
	});

	it('treats a damaged manifest as a first run: generated files already there are left alone', () => {
		const first = planInit({ ...base, project: fixture });
		const after = applied(fixture, first);
		const auth = `${after.files['src/auth.ts']}// my provider\n`;
		const damaged: Project = { ...after, files: { ...after.files, 'src/auth.ts': auth, [MANIFEST_PATH]: '{ not json' } };
		const plan = planInit({ ...base, project: damaged });
		expect(paths(plan)).not.toContain('src/auth.ts');
		expect(plan.skipped).toContainEqual({ path: 'src/auth.ts', reason: 'already exists; left as is' });
	});

	it('keeps an existing AUTH_SECRET', () => {
		const project = { ...fixture, files: { ...fixture.files, '.env': 'AUTH_SECRET=users-own-secret-users-own-secret-123\n' } };
		const env = planInit({ ...base, project }).operations.find((op) => op.path === '.env')!.content;
		expect(env).toMatch(/^AUTH_SECRET=users-own-secret-users-own-secret-123$/m);
		expect(env).not.toContain(SECRET);
	});

	it('keeps a vendored runtime file the user edited and keeps its merge base in the manifest', () => {
		const first = planInit({ ...base, project: fixture });
		const after = applied(fixture, first);
		const path = 'src/lib/server/auth/errors.ts';
		const edited: Project = { ...after, files: { ...after.files, [path]: `${after.files[path]}// my fix\n` } };
		const changedRuntime: TextFiles = { ...base.runtime, 'server/errors.ts': `${base.runtime['server/errors.ts']}// v2\n` };
		const plan = planInit({ ...base, runtime: changedRuntime, project: edited });
		expect(paths(plan)).not.toContain(path);
		expect(plan.skipped).toEqual([{ path, reason: expect.stringContaining('regenerate') }]);
		const manifest = parseManifest(plan.operations.find((op) => op.path === MANIFEST_PATH)?.content ?? edited.files[MANIFEST_PATH])!;
		expect(manifest.files[path]).toEqual({ strategy: 'managed', content: base.runtime['server/errors.ts'] });
	});

	it('updates a generated file the user has not touched when the template changes', () => {
		const first = planInit({ ...base, project: fixture });
		const templates = { ...base.templates, 'routes/signout/+page.svelte.hbs': '<p>new</p>\n' };
		const plan = planInit({ ...base, templates, project: applied(fixture, first) });
		expect(plan.operations.find((op) => op.path === 'src/routes/signout/+page.svelte')?.content).toBe('<p>new</p>\n');
	});
});
