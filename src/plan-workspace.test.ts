import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { loadRuntime, loadTemplates, loadToolPackage } from './assets.js';
import { MANIFEST_PATH, parseManifest } from './manifest.js';
import { planInit, type Plan, type PlanInput } from './plan.js';
import { detectProject, type Project } from './project.js';

/** planInit for an app in `apps/web` of a workspace: the build allowances go to the root's files. */
const FIXTURE = fileURLToPath(new URL('../e2e/fixtures/kit2-ts', import.meta.url));
const ROOT_YAML = '../../pnpm-workspace.yaml';
const ROOT_JSON = '../../package.json';

let base: Omit<PlanInput, 'project'>;
let app: Project;
beforeAll(async () => {
	const [templates, runtime, tool] = await Promise.all([loadTemplates(), loadRuntime(), loadToolPackage()]);
	base = { answers: DEFAULT_ANSWERS, tool, templates, runtime, authSecret: 'test-secret-0123456789-0123456789-abcdef' };
	app = await detectProject(FIXTURE);
});

/** The fixture as if it lived in `apps/web` of a workspace whose root holds `rootFiles`. */
function inWorkspace(packageManager: Project['packageManager'], rootFiles: { yaml?: string; json?: string }): Project {
	return {
		...app,
		packageManager,
		installRoot: path.resolve(app.root, '../..'),
		files: { ...app.files, [ROOT_YAML]: rootFiles.yaml, [ROOT_JSON]: rootFiles.json }
	};
}

const contentOf = (plan: Plan, file: string) => plan.operations.find((op) => op.path === file)?.content;
const appManifest = (plan: Plan) => JSON.parse(contentOf(plan, 'package.json')!) as Record<string, unknown>;

describe('planInit in a workspace app (sqlite: better-sqlite3 must be built)', () => {
	it("pnpm: allows the build in the ROOT pnpm-workspace.yaml, keeping its packages and comments; none in the app", async () => {
		const yaml = "# the monorepo\npackages:\n  - 'apps/*'\n\ncatalog:\n  zod: ^4.0.0\n";
		const plan = await planInit({ ...base, project: inWorkspace('pnpm', { yaml, json: '{ "name": "monorepo", "private": true }\n' }) });
		expect(contentOf(plan, ROOT_YAML)).toBe(`${yaml}allowBuilds:\n  better-sqlite3: true\n`);
		expect(plan.operations.map((op) => op.path)).not.toContain('pnpm-workspace.yaml');
		expect(plan.operations.map((op) => op.path)).not.toContain(ROOT_JSON);
		expect(appManifest(plan).dependencies).toHaveProperty('better-sqlite3');
		expect(parseManifest(contentOf(plan, MANIFEST_PATH))!.files[ROOT_YAML]).toEqual({ strategy: 'patch', edits: ['build allowed: better-sqlite3'] });
	});

	it("npm: allowScripts goes to the ROOT package.json (npm ignores a workspace package's), not the app's", async () => {
		const json = '{\n  "name": "monorepo",\n  "private": true,\n  "workspaces": ["apps/*"]\n}\n';
		const plan = await planInit({ ...base, project: inWorkspace('npm', { json }) });
		expect(JSON.parse(contentOf(plan, ROOT_JSON)!)).toEqual({ name: 'monorepo', private: true, workspaces: ['apps/*'], allowScripts: { 'better-sqlite3': true } });
		expect(appManifest(plan)).not.toHaveProperty('allowScripts');
		expect(appManifest(plan).dependencies).toHaveProperty('better-sqlite3');
	});

	it('a second run plans nothing for the root files', async () => {
		const project = inWorkspace('pnpm', { yaml: 'packages:\n  - apps/*\n', json: '{}' });
		const first = await planInit({ ...base, project });
		const files = { ...project.files };
		let packageJson = project.packageJson;
		for (const op of first.operations) {
			if (op.path === 'package.json') packageJson = op.content!;
			else files[op.path] = op.content;
		}
		const again = await planInit({ ...base, project: { ...project, files, packageJson } });
		expect(again.operations).toEqual([]);
	});

	it('a root without a package.json, or with a broken one, is not written (pnpm needs only the yaml)', async () => {
		for (const json of [undefined, '{ broken']) {
			const plan = await planInit({ ...base, project: inWorkspace('pnpm', { yaml: 'packages:\n  - apps/*\n', json }) });
			expect(plan.operations.map((op) => op.path)).not.toContain(ROOT_JSON);
			expect(contentOf(plan, ROOT_YAML)).toContain('better-sqlite3: true');
		}
	});
});
