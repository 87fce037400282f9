import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureCopy, run } from '../test/binary.js';

describe('the first run, as a newcomer sees it', { timeout: 30_000 }, () => {
	let dir: string | undefined;
	afterEach(async () => {
		if (dir) await rm(dir, { recursive: true, force: true });
		dir = undefined;
	});

	it('fits one 80×24 screen with five providers: the runtime as its folders, the pages as their routes, then the next steps', async () => {
		dir = await fixtureCopy();
		const result = await run(dir, { COLUMNS: '80' }, '--yes', '--no-install', '--providers', 'credentials,email,passkey,github,google');
		expect(result.code, result.stderr).toBe(0);
		const lines = result.stdout.trimEnd().split('\n');
		expect(lines.length, result.stdout).toBeLessThanOrEqual(24);
		expect(Math.max(...lines.map((line) => line.length)), result.stdout).toBeLessThanOrEqual(80);
		expect(result.stdout).toMatch(/\+ runtime: src\/lib\/server\/auth\/ \(\d+ files\), src\/lib\/auth\/ \(\d+ files\)/);
		expect(result.stdout).toContain('+ pages: /signin and 5 pages below it, /signout, /account,');
		expect(result.stdout).toContain('Next steps');
		expect(result.stdout).toContain('AUTH_URL');
	});

	it('lists every file with --verbose', async () => {
		dir = await fixtureCopy();
		const result = await run(dir, '--yes', '--no-install', '--verbose');
		expect(result.code, result.stderr).toBe(0);
		const count = Number(/Wrote (\d+) files:/.exec(result.stdout)?.[1]);
		expect(result.stdout.match(/^│ {4}[+~-] \S+$/gm)).toHaveLength(count);
		expect(result.stdout).toContain('+ src/lib/server/auth/config.ts');
	});
});
