import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../providers/index.js';
import { init } from './init.js';
import { removeProvider } from './provider.js';
import { regenerate } from './regenerate.js';
import { captureStdout } from '../test/stdout.js';

// The commands as the binary runs them (load → plan → apply), in this process, on copies of the
// e2e fixtures: a fresh app is set up, then regenerated, and what they print is read back.
const fixturePath = (name: string) => fileURLToPath(new URL(`../../e2e/fixtures/${name}`, import.meta.url));

/** The provider sets the e2e and plan tests set apps up with. */
const PROVIDER_SETS = [
	'credentials',
	'credentials,email',
	'credentials,passkey',
	'credentials,idp',
	'passkey',
	'email',
	'idp',
	'github,google',
	PROVIDERS.map(({ id }) => id).join(',')
];
const FIXTURES = ['kit2-ts', 'kit3-ts', 'kit2-jsdoc', 'kit3-jsdoc'];

const stdout = captureStdout();

async function appFrom(fixture: string): Promise<string> {
	const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-regenerate-'));
	await cp(fixturePath(fixture), dir, { recursive: true });
	return dir;
}

/** Every file below `root` with its text and modification time (to prove "zero bytes written"). */
async function snapshot(root: string): Promise<Record<string, { text: string; mtime: number }>> {
	const out: Record<string, { text: string; mtime: number }> = {};
	for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const file = path.join(entry.parentPath, entry.name);
		out[path.relative(root, file)] = { text: await readFile(file, 'utf8'), mtime: (await stat(file)).mtimeMs };
	}
	return out;
}

describe('regenerate right after the first run', { timeout: 30_000 }, () => {
	describe.each(FIXTURES)('in %s', (fixture) => {
		it.each(PROVIDER_SETS)('--providers %s: reports nothing deleted or left alone, and writes nothing', async (providers) => {
			const app = await appFrom(fixture);
			expect(await init({ cwd: app, yes: true, providers, install: false })).toBe(0);
			const before = await snapshot(app);
			stdout.clear();
			expect(await regenerate({ cwd: app, install: false })).toBe(0);
			expect(stdout.text).toContain('Nothing to write: the app is up to date.');
			expect(stdout.text).not.toContain('deleted');
			expect(stdout.text).not.toContain('left as is');
			expect(await snapshot(app)).toEqual(before);
			await rm(app, { recursive: true });
		});
	});
});

describe('the pages under src/routes/signin/ that providers add', { timeout: 30_000 }, () => {
	const file = (app: string, relative: string) => path.join(app, relative);

	it('regenerate --restore of a page on disk writes nothing; of a page the user deleted, brings back that one only', async () => {
		const app = await appFrom('kit2-ts');
		expect(await init({ cwd: app, yes: true, providers: 'credentials', install: false })).toBe(0);
		const page = 'src/routes/signin/reset-password/+page.svelte';
		const written = await readFile(file(app, page), 'utf8');
		const before = await snapshot(app);
		expect(await regenerate({ cwd: app, install: false, restore: [page] })).toBe(0);
		expect(await snapshot(app)).toEqual(before);

		await rm(file(app, page));
		await rm(file(app, 'src/routes/signin/verify-email/+page.svelte'));

		expect(await regenerate({ cwd: app, install: false })).toBe(0);
		expect(stdout.text).toContain(`${page}: you deleted it; left deleted`);
		expect(existsSync(file(app, page))).toBe(false);

		expect(await regenerate({ cwd: app, install: false, restore: [page] })).toBe(0);
		expect(await readFile(file(app, page), 'utf8')).toBe(written);
		expect(existsSync(file(app, 'src/routes/signin/verify-email/+page.svelte'))).toBe(false);
		await rm(app, { recursive: true });
	});

	it('remove-provider credentials deletes the pages it added, keeping one the user edited', async () => {
		const app = await appFrom('kit3-jsdoc');
		expect(await init({ cwd: app, yes: true, providers: 'credentials,github', install: false })).toBe(0);
		const edited = 'src/routes/signin/forgot-password/+page.svelte';
		const mine = `${await readFile(file(app, edited), 'utf8')}\n<p>Ask the front desk.</p>\n`;
		await writeFile(file(app, edited), mine);
		const added = [
			'src/routes/signup/+page.server.js',
			'src/routes/signup/+page.svelte',
			'src/routes/signin/forgot-password/+page.server.js',
			'src/routes/signin/reset-password/+page.server.js',
			'src/routes/signin/reset-password/+page.svelte',
			'src/routes/signin/verify-email/+page.server.js',
			'src/routes/signin/verify-email/+page.svelte'
		];
		for (const page of added) expect(existsSync(file(app, page)), page).toBe(true);

		expect(await removeProvider('credentials', { cwd: app, install: false })).toBe(0);
		for (const page of added) expect(existsSync(file(app, page)), page).toBe(false);
		expect(await readFile(file(app, edited), 'utf8')).toBe(mine);
		expect(stdout.text).toContain(`${edited}: no longer generated; kept because you changed it`);
		await rm(app, { recursive: true });
	});
});
