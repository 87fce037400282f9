import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// The first run in an app that already has auth (issue 26), through the real binary
// (bin/create-auth.js → dist/), as users run it; `npm test` builds first. Nothing is installed.
const BIN = fileURLToPath(new URL('../../bin/create-auth.js', import.meta.url));
const fixturePath = (name: string) => fileURLToPath(new URL(`../../e2e/fixtures/${name}`, import.meta.url));

async function run(cwd: string, ...args: string[]) {
	try {
		const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, CI: '1', NO_COLOR: '1' } });
		return { code: 0, stdout, stderr };
	} catch (error) {
		const e = error as { code: number; stdout: string; stderr: string };
		return { code: e.code, stdout: e.stdout, stderr: e.stderr };
	}
}

async function snapshot(root: string): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
		if (entry.isFile()) out[path.relative(root, path.join(entry.parentPath, entry.name))] = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
	}
	return out;
}

describe('create-auth in an app that already has auth', () => {
	let dir: string | undefined;
	const copy = async (fixture: string) => {
		dir = await mkdtemp(path.join(tmpdir(), 'create-auth-existing-'));
		await cp(fixturePath(fixture), dir, { recursive: true });
		return dir;
	};
	afterEach(async () => {
		if (dir) await rm(dir, { recursive: true, force: true });
		dir = undefined;
	});

	it('names Better Auth, where it is and what running both means, and goes on (exit 0)', async () => {
		const app = await copy('kit2-better-auth');
		const result = await run(app, '--yes', '--dry-run');
		expect(result.code, result.stderr).toBe(0);
		const lines = ['Better Auth is already set up in this app:', '  better-auth in package.json', '  svelteKitHandler in src/hooks.server.ts', '  betterAuth() in src/lib/server/auth.ts'];
		expect(result.stdout).toContain(lines.join('\n│  '));
		expect(result.stdout).toContain("Both hooks run on every request, and Better Auth's users cannot sign in");
	});

	it("refuses with E_AUTH_FILE_TAKEN, writing nothing, where src/auth.ts is Auth.js's configuration", async () => {
		const app = await copy('kit2-ts');
		const packageJson = JSON.parse(await readFile(path.join(app, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
		packageJson.devDependencies['@auth/sveltekit'] = '^1.10.0';
		await writeFile(path.join(app, 'package.json'), JSON.stringify(packageJson, null, '\t') + '\n');
		await writeFile(path.join(app, 'src/auth.ts'), "import { SvelteKitAuth } from '@auth/sveltekit';\n\nexport const { handle, signIn, signOut } = SvelteKitAuth({ providers: [] });\n");
		const before = await snapshot(app);
		const result = await run(app, '--yes', '--no-install');
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('[E_AUTH_FILE_TAKEN]');
		expect(result.stderr).toContain("src/auth.ts is Auth.js's configuration");
		expect(result.stderr).toContain('npx create-auth switch');
		expect(await snapshot(app)).toEqual(before);
	});

	it('says nothing of the kind in an app without auth', async () => {
		const result = await run(await copy('kit2-ts'), '--yes', '--dry-run');
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).not.toContain('already set up');
	});
});
