import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { KIT3_FIXTURE, failingNpm, fixtureCopy, run, snapshot } from './test/binary.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

// The binary as users start it, under the Node running this file: CI runs it under every Node
// create-auth supports (scripts/node-dependent.js), where the rest of src/ runs under the active LTS.
describe(`bin/create-auth.js under Node ${process.versions.node}`, { timeout: 30_000 }, () => {
	it("starts and prints package.json's version", async () => {
		const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
		const result = await run(tmpdir(), '--version');
		expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
	});

	it('--dry-run prints the plan and writes nothing', async () => {
		const dir = await fixtureCopy();
		const before = await snapshot(dir);
		const result = await run(dir, '--yes', '--dry-run');
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('+ src/auth.ts (new');
		expect(result.stdout).toContain('+++ b/src/app.d.ts');
		expect(result.stdout).not.toMatch(/AUTH_SECRET=\S/);
		expect(await snapshot(dir)).toEqual(before);
	});

	it.runIf(NODE_MAJOR < 22)("writes a SvelteKit 3 app's files on Node 20 but leaves the install for Node 22.17, saying so", async () => {
		const dir = await fixtureCopy(KIT3_FIXTURE);
		const result = await run(dir, { PATH: await failingNpm() }, '--yes');
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(`needs Node 22.17 or later to install, build and run; this is Node ${process.versions.node}`);
		expect(result.stdout).toContain('Switch to Node 22.17 or later');
		expect(result.stdout).toMatch(/^│\s+npm install\s/m);
		expect(result.stdout).not.toContain('simulated failure');
		const files = await snapshot(dir);
		expect(files['src/env.ts']).toContain('AUTH_SECRET: {');
		expect(files['src/auth.ts']).toContain("from '$app/env/private';");
	});
});
