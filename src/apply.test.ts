import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOperations, JOURNAL_PATH, recoverInterruptedRun } from './apply.js';
import { CliError } from './errors.js';

async function tree(root: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
		const file = path.join(entry.parentPath, entry.name);
		out[path.relative(root, file)] = entry.isFile() ? await readFile(file, 'utf8') : '<dir>';
	}
	return out;
}

async function app(): Promise<string> {
	const root = await mkdtemp(path.join(tmpdir(), 'create-auth-apply-'));
	await writeFile(path.join(root, 'package.json'), '{}\n');
	await mkdir(path.join(root, 'src'));
	await writeFile(path.join(root, 'src/app.d.ts'), 'old\n');
	return root;
}

describe('applyOperations', () => {
	it('writes new and changed files, and its rollback restores the app exactly', async () => {
		const root = await app();
		const before = await tree(root);
		const applied = await applyOperations(root, [
			{ path: 'src/app.d.ts', strategy: 'patch', content: 'new\n', previous: 'old\n' },
			{ path: 'src/lib/server/auth/index.ts', strategy: 'managed', content: 'x\n', previous: undefined }
		]);
		expect(await readFile(path.join(root, 'src/app.d.ts'), 'utf8')).toBe('new\n');
		expect(await readFile(path.join(root, 'src/lib/server/auth/index.ts'), 'utf8')).toBe('x\n');
		await applied.rollback();
		expect(await tree(root)).toEqual(before);
	});

	it('keeps a journal until the run is committed, and deletes files an operation without content names', async () => {
		const root = await app();
		const applied = await applyOperations(root, [
			{ path: 'src/app.d.ts', strategy: 'merge', content: undefined, previous: 'old\n' },
			{ path: 'src/auth.ts', strategy: 'merge', content: 'x\n', previous: undefined }
		]);
		expect(existsSync(path.join(root, 'src/app.d.ts'))).toBe(false);
		const journal = path.join(root, JOURNAL_PATH);
		expect(JSON.parse(await readFile(journal, 'utf8')).files).toContainEqual({ path: 'src/app.d.ts', previous: 'old\n' });
		expect((await stat(journal)).mode & 0o777).toBe(0o600);
		await applied.commit();
		expect(existsSync(journal)).toBe(false);
		expect(await recoverInterruptedRun(root)).toBe(0);
		expect(await readFile(path.join(root, 'src/auth.ts'), 'utf8')).toBe('x\n');
	});

	it("keeps an existing file's permissions, follows a symlink, and creates a new .env readable by its owner only", async () => {
		const root = await app();
		await writeFile(path.join(root, 'real.d.ts'), 'old\n', { mode: 0o640 });
		await rm(path.join(root, 'src/app.d.ts'));
		await symlink(path.join(root, 'real.d.ts'), path.join(root, 'src/app.d.ts'));
		const applied = await applyOperations(root, [
			{ path: 'src/app.d.ts', strategy: 'patch', content: 'new\n', previous: 'old\n' },
			{ path: '.env', strategy: 'patch', content: 'AUTH_SECRET=x\n', previous: undefined }
		]);
		await applied.commit();
		expect((await lstat(path.join(root, 'src/app.d.ts'))).isSymbolicLink()).toBe(true);
		expect(await readFile(path.join(root, 'real.d.ts'), 'utf8')).toBe('new\n');
		expect((await stat(path.join(root, 'real.d.ts'))).mode & 0o777).toBe(0o640);
		expect((await stat(path.join(root, '.env'))).mode & 0o777).toBe(0o600);
	});

	it('stops between two files when cancelled (Ctrl-C) and restores the app', async () => {
		const root = await app();
		const before = await tree(root);
		const controller = new AbortController();
		controller.abort();
		const cancelled = applyOperations(root, [{ path: 'src/auth.ts', strategy: 'merge', content: 'x\n', previous: undefined }], controller.signal);
		await expect(cancelled).rejects.toMatchObject({ code: 'E_CANCELLED' });
		expect(await tree(root)).toEqual(before);
	});

	it('a process killed in the middle of writing is undone by the next run', async () => {
		const root = await app();
		await writeFile(path.join(root, '.env'), 'AUTH_SECRET=keep-me\n');
		const before = await tree(root);
		// Enough large files that the kill lands mid-apply: the child is killed (SIGKILL, no
		// cleanup of any kind) as soon as the first new file is on disk.
		const operations = [
			{ path: '.env', strategy: 'patch', content: 'AUTH_SECRET=keep-me\nX=1\n', previous: 'AUTH_SECRET=keep-me\n' },
			{ path: 'src/app.d.ts', strategy: 'patch', content: 'new\n', previous: 'old\n' },
			...Array.from({ length: 400 }, (_, i) => ({
				path: `src/lib/server/auth/file${i}.ts`,
				strategy: 'managed',
				content: 'x'.repeat(200_000),
				previous: undefined
			}))
		];
		// The built module (npm test builds first), run by a plain Node.
		const planFile = path.join(await mkdtemp(path.join(tmpdir(), 'create-auth-plan-')), 'operations.json');
		await writeFile(planFile, JSON.stringify(operations));
		const script = `import { readFileSync } from 'node:fs';
			import { applyOperations } from ${JSON.stringify(new URL('../dist/apply.js', import.meta.url).href)};
			await applyOperations(process.argv[1], JSON.parse(readFileSync(process.argv[2], 'utf8')));`;
		const child = spawn(process.execPath, ['--input-type=module', '-e', script, root, planFile], { stdio: 'ignore' });
		const exited = new Promise((resolve) => child.on('exit', resolve));
		const firstNewFile = path.join(root, 'src/lib/server/auth/file0.ts');
		for (let i = 0; i < 2000 && !existsSync(firstNewFile); i++) await new Promise((resolve) => setTimeout(resolve, 5));
		child.kill('SIGKILL');
		await exited;
		expect(existsSync(firstNewFile)).toBe(true);
		expect(existsSync(path.join(root, 'src/lib/server/auth/file399.ts'))).toBe(false);
		expect(await readFile(path.join(root, 'src/app.d.ts'), 'utf8')).toBe('new\n');

		expect(await recoverInterruptedRun(root)).toBe(operations.length);
		expect(await tree(root)).toEqual(before);
	});

	it('leaves the app as it was when a write fails half way', async () => {
		const root = await app();
		// A folder where a file must go makes the second write fail after the first succeeded.
		await mkdir(path.join(root, 'src/auth.ts'));
		const before = await tree(root);
		const failed = applyOperations(root, [
			{ path: 'src/app.d.ts', strategy: 'patch', content: 'new\n', previous: 'old\n' },
			{ path: 'src/routes/signin/+page.svelte', strategy: 'merge', content: 'x\n', previous: undefined },
			{ path: 'src/auth.ts', strategy: 'merge', content: 'x\n', previous: undefined }
		]);
		await expect(failed).rejects.toMatchObject({ code: 'E_WRITE_FAILED' });
		await expect(failed).rejects.toBeInstanceOf(CliError);
		expect(await tree(root)).toEqual(before);
	});

	it('writes nothing when a file changed on disk after it was planned', async () => {
		const root = await app();
		const failed = applyOperations(root, [
			{ path: 'package.json', strategy: 'tool', content: '{"a":1}\n', previous: '{}\n' },
			{ path: 'src/app.d.ts', strategy: 'patch', content: 'new\n', previous: 'what the plan saw\n' }
		]);
		await expect(failed).rejects.toMatchObject({ code: 'E_WRITE_FAILED' });
		expect(await readFile(path.join(root, 'package.json'), 'utf8')).toBe('{}\n');
	});
});

describe('applyOperations on a workspace root file (an app in apps/web writing ../../pnpm-workspace.yaml)', () => {
	async function workspace(): Promise<{ root: string; appDir: string }> {
		const root = await mkdtemp(path.join(tmpdir(), 'create-auth-apply-ws-'));
		await writeFile(path.join(root, 'pnpm-workspace.yaml'), "packages:\n  - 'apps/*'\n");
		const appDir = path.join(root, 'apps/web');
		await mkdir(path.join(appDir, 'src'), { recursive: true });
		await writeFile(path.join(appDir, 'package.json'), '{}\n');
		return { root, appDir };
	}
	const operations = [
		{ path: '../../pnpm-workspace.yaml', strategy: 'patch' as const, content: "packages:\n  - 'apps/*'\nallowBuilds:\n  better-sqlite3: true\n", previous: "packages:\n  - 'apps/*'\n" },
		{ path: 'src/auth.ts', strategy: 'merge' as const, content: 'x\n', previous: undefined }
	];

	it('writes it, and a rollback (a failed install) restores it with the app', async () => {
		const { root, appDir } = await workspace();
		const before = await tree(root);
		const applied = await applyOperations(appDir, operations);
		expect(await readFile(path.join(root, 'pnpm-workspace.yaml'), 'utf8')).toContain('better-sqlite3: true');
		await applied.rollback();
		expect(await tree(root)).toEqual(before);
	});

	it('an interrupted run (the process killed before commit) is undone by the next run, root file included', async () => {
		const { root, appDir } = await workspace();
		const before = await tree(root);
		await applyOperations(appDir, operations);
		expect(await recoverInterruptedRun(appDir)).toBe(2);
		expect(await tree(root)).toEqual(before);
	});

	it('a write that fails after the root file was written restores it', async () => {
		const { root, appDir } = await workspace();
		await mkdir(path.join(appDir, 'src/auth.ts'));
		const before = await tree(root);
		await expect(applyOperations(appDir, [operations[0]!, { ...operations[1]!, previous: undefined }])).rejects.toMatchObject({ code: 'E_WRITE_FAILED' });
		expect(await tree(root)).toEqual(before);
	});
});
