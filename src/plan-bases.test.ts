import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS, type Answers } from './answers.js';
import { loadRuntime, loadTemplates, loadToolPackage, type TextFiles } from './assets.js';
import { digest, MANIFEST_PATH, parseManifest, serializeManifest, type Manifest } from './manifest.js';
import { planInit, type Plan, type PlanInput } from './plan.js';
import { detectProject, type Project } from './project.js';
import { applied } from './test/applied.js';

// regenerate's merge bases when the manifest records runtime files by digest only: the app's
// copy while unchanged, else the runtime of the release that wrote it (PlanInput.release).

const FIXTURE = fileURLToPath(new URL('../e2e/fixtures/kit2-ts', import.meta.url));
const ERRORS = 'server/auth/errors.ts';
const ERRORS_PATH = `src/lib/${ERRORS}`;
const FIVE_PROVIDERS: Answers = { ...DEFAULT_ANSWERS, providers: ['credentials', 'passkey', 'github', 'google', 'email'] };

let base: Omit<PlanInput, 'project'>;
let fixture: Project;
/** The runtime as release 0.1.9 shipped it (this one with a line less), and as 0.2.0 ships it. */
let older: TextFiles;
let newer: TextFiles;

beforeAll(async () => {
	const [templates, runtime, tool] = await Promise.all([loadTemplates(), loadRuntime(), loadToolPackage()]);
	newer = { ...runtime, [ERRORS]: `${runtime[ERRORS]}// 0.2.0\n` };
	older = runtime;
	base = { answers: DEFAULT_ANSWERS, tool: { ...tool, version: '0.2.0' }, templates, runtime: newer, authSecret: 'test-secret-0123456789-0123456789-abcdef' };
	fixture = await detectProject(FIXTURE);
});


const contentOf = (plan: Plan, path: string) => plan.operations.find((op) => op.path === path)?.content;
const manifestOf = (plan: Plan): Manifest => parseManifest(contentOf(plan, MANIFEST_PATH))!;

/** The fixture as release 0.1.9 set it up, with the user's note at the top of the runtime's errors.ts. */
async function editedByUser(format?: PlanInput['format']): Promise<Project> {
	const first = await planInit({ ...base, tool: { ...base.tool, version: '0.1.9' }, runtime: older, project: fixture, format });
	const app = applied(fixture, first);
	return { ...app, files: { ...app.files, [ERRORS_PATH]: `// my note\n${app.files[ERRORS_PATH]}` } };
}

describe('the manifest of a new app', () => {
	it('records each runtime file by digest, and the whole manifest of a five-provider app stays under 50 KB', async () => {
		const plan = await planInit({ ...base, answers: FIVE_PROVIDERS, project: fixture });
		const text = contentOf(plan, MANIFEST_PATH)!;
		expect(JSON.parse(text).files[ERRORS_PATH]).toEqual({ strategy: 'managed', sha256: digest(newer[ERRORS]!) });
		expect(Buffer.byteLength(text)).toBeLessThan(50_000);
		const pages = Object.values(manifestOf(plan).files).filter((file) => file.strategy === 'merge');
		expect(pages.length).toBeGreaterThan(10);
		expect(pages.every((file) => file.content.length > 0)).toBe(true);
	});
});

describe('regenerate across releases with a manifest of digests', () => {
	it("merges the user's edit of a runtime file with the release's copy as the base, asking for that release once", async () => {
		const asked: string[] = [];
		const release = async (version: string) => (asked.push(version), version === '0.1.9' ? older : undefined);
		const plan = await planInit({ ...base, project: await editedByUser(), release });
		expect(contentOf(plan, ERRORS_PATH)).toBe(`// my note\n${older[ERRORS]}// 0.2.0\n`);
		expect(plan.conflicts).toEqual([]);
		expect(plan.pending).toEqual([]);
		expect(asked).toEqual(['0.1.9']);
		expect(manifestOf(plan).files[ERRORS_PATH]).toEqual({ strategy: 'managed', sha256: digest(newer[ERRORS]!) });
	});

	it("with the app's Prettier: the release's file laid out as the app lays it out is the base", async () => {
		const spaces = async (_: string, text: string) => text.replaceAll('\t', '  ');
		const release = async () => older;
		const plan = await planInit({ ...base, project: await editedByUser(spaces), release, format: spaces });
		expect(contentOf(plan, ERRORS_PATH)).toBe(`// my note\n${older[ERRORS]!.replaceAll('\t', '  ')}// 0.2.0\n`);
		expect(plan.conflicts).toEqual([]);
	});

	it('replaces the unchanged runtime files without asking for any release', async () => {
		const first = await planInit({ ...base, tool: { ...base.tool, version: '0.1.9' }, runtime: older, project: fixture });
		const release = async () => expect.fail('no release is needed: every runtime file is as written');
		const plan = await planInit({ ...base, project: applied(fixture, first), release });
		expect(contentOf(plan, ERRORS_PATH)).toBe(newer[ERRORS]);
	});

	it('keeps an edited runtime file as it is when its release is out of reach, with a manual step, and merges it once the release is reachable', async () => {
		const edited = await editedByUser();
		const offline = await planInit({ ...base, project: edited, release: async () => undefined });
		expect(contentOf(offline, ERRORS_PATH)).toBeUndefined();
		expect(offline.skipped).toContainEqual({ path: ERRORS_PATH, reason: expect.stringContaining("create-auth 0.1.9's copy to merge your edits with is out of reach") });
		expect(offline.pending).toEqual([expect.stringMatching(/^src\/lib\/server\/auth\/errors\.ts: merge your edits into create-auth 0\.2\.0's copy.*npm pack create-auth@0\.1\.9.*delete it and run create-auth regenerate --restore src\/lib\/server\/auth\/errors\.ts/)]);
		const kept = manifestOf(offline);
		expect(kept.version).toBe('0.2.0');
		expect(kept.files[ERRORS_PATH]).toEqual({ strategy: 'managed', sha256: digest(older[ERRORS]!), release: '0.1.9' });

		const deleted = applied(edited, offline);
		const restored = await planInit({ ...base, project: { ...deleted, files: { ...deleted.files, [ERRORS_PATH]: undefined } }, restore: [ERRORS_PATH], release: async () => undefined });
		expect(contentOf(restored, ERRORS_PATH)).toBe(newer[ERRORS]);
		expect(restored.pending).toEqual([]);

		const online = await planInit({ ...base, project: applied(edited, offline), release: async (version) => (version === '0.1.9' ? older : undefined) });
		expect(contentOf(online, ERRORS_PATH)).toBe(`// my note\n${older[ERRORS]}// 0.2.0\n`);
		expect(online.pending).toEqual([]);
		expect(manifestOf(online).files[ERRORS_PATH]).toEqual({ strategy: 'managed', sha256: digest(newer[ERRORS]!) });
	});

	it('leaves an edited runtime module a release moved at its old path, never deleting it, when its release is out of reach', async () => {
		const first = await planInit({ ...base, tool: { ...base.tool, version: '0.1.9' }, runtime: older, project: fixture });
		const app = applied(fixture, first);
		const [now, then] = ['src/lib/server/auth/session/cookies.ts', 'src/lib/server/auth/cookies.ts'];
		const manifest = manifestOf(first);
		const { [now]: record, ...others } = manifest.files;
		const files: Record<string, string | undefined> = { ...app.files, [now]: undefined, [then]: `// my note\n${app.files[now]}` };
		files[MANIFEST_PATH] = serializeManifest({ ...manifest, files: { ...others, [then]: record! } });
		const plan = await planInit({ ...base, project: { ...app, files }, release: async () => undefined });
		expect(plan.operations.filter((op) => op.path === now || op.path === then)).toEqual([]);
		expect(plan.pending).toEqual([expect.stringContaining(`${then}: merge your edits`)]);
		expect(manifestOf(plan).files[then]).toEqual({ ...record, release: '0.1.9' });
	});

	it('leaves a runtime file the user deleted deleted, with no release asked for, and brings it back on --restore', async () => {
		const first = await planInit({ ...base, tool: { ...base.tool, version: '0.1.9' }, runtime: older, project: fixture });
		const app = applied(fixture, first);
		const deleted = { ...app, files: { ...app.files, [ERRORS_PATH]: undefined } };
		const release = async () => expect.fail('a deleted file needs no merge base');
		const plan = await planInit({ ...base, project: deleted, release });
		expect(contentOf(plan, ERRORS_PATH)).toBeUndefined();
		expect(plan.skipped).toContainEqual({ path: ERRORS_PATH, reason: expect.stringContaining('you deleted it; left deleted') });
		const restored = await planInit({ ...base, project: deleted, restore: [ERRORS_PATH], release });
		expect(contentOf(restored, ERRORS_PATH)).toBe(newer[ERRORS]);
	});

	it('does not take a release file that differs from the one recorded as the base', async () => {
		const tampered = { ...older, [ERRORS]: `${older[ERRORS]}// not what 0.1.9 wrote\n` };
		const plan = await planInit({ ...base, project: await editedByUser(), release: async () => tampered });
		expect(contentOf(plan, ERRORS_PATH)).toBeUndefined();
		expect(plan.pending).toEqual([expect.stringContaining(ERRORS_PATH)]);
	});

	it('writes nothing on a second run of the same release, and rewrites a manifest of the older kind once, into digests', async () => {
		const first = await planInit({ ...base, project: fixture });
		const app = applied(fixture, first);
		expect((await planInit({ ...base, project: app })).operations).toEqual([]);

		// The older kind kept each runtime file's text and each page's text in place.
		const manifest = manifestOf(first);
		const files = Object.fromEntries(
			Object.entries(manifest.files).map(([path, file]) => [path, file.strategy === 'managed' ? { strategy: 'managed', content: app.files[path] } : file])
		);
		const older = { ...app, files: { ...app.files, [MANIFEST_PATH]: `${JSON.stringify({ ...manifest, files }, null, 2)}\n` } };
		const upgrade = await planInit({ ...base, project: older });
		expect(upgrade.operations.map((op) => op.path)).toEqual([MANIFEST_PATH]);
		expect(manifestOf(upgrade)).toEqual(manifest);
	});
});
