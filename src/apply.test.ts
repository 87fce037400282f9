import { mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOperations } from './apply.js';
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
		const rollback = await applyOperations(root, [
			{ path: 'src/app.d.ts', strategy: 'patch', content: 'new\n', previous: 'old\n' },
			{ path: 'src/lib/server/auth/index.ts', strategy: 'managed', content: 'x\n', previous: undefined }
		]);
		expect(await readFile(path.join(root, 'src/app.d.ts'), 'utf8')).toBe('new\n');
		expect(await readFile(path.join(root, 'src/lib/server/auth/index.ts'), 'utf8')).toBe('x\n');
		await rollback();
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
