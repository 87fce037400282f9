import { statSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { init } from './commands/init.js';
import { PROVIDERS } from './providers/index.js';

// Issue 27: an app is vendored only the runtime modules its providers and features can reach.
// For each provider set, an app is set up and its imports are followed, from the app's own files
// (src/auth, the hooks, the pages, app.d.ts) through the vendored modules: every vendored module
// must be reached. The walk reads specifiers with a plain pattern, on purpose independent of the
// CLI's own import closure (src/vendor.ts), so it checks that code rather than repeating it.

const fixturePath = (name: string) => fileURLToPath(new URL(`../e2e/fixtures/${name}`, import.meta.url));
const ALL = PROVIDERS.map(({ id }) => id).join(',');

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const isRuntime = (file: string) => /^src\/lib\/(server\/)?auth\//.test(file);

async function appFiles(root: string): Promise<string[]> {
	return (await readdir(path.join(root, 'src'), { recursive: true, withFileTypes: true }))
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The app file a specifier names from `from`, if it is one of the app's (`$lib/…`, `#lib/…`, relative). */
function resolve(root: string, from: string, specifier: string): string | undefined {
	let base: string;
	if (specifier.startsWith('$lib/')) base = `src/lib/${specifier.slice(5)}`;
	else if (specifier.startsWith('#lib/')) base = `src/lib/${specifier.slice(5)}`;
	else if (specifier.startsWith('.')) base = path.posix.join(path.posix.dirname(from), specifier);
	else return undefined;
	const stem = base.replace(/\.js$/, '');
	return [base, `${stem}.ts`, `${stem}.js`, `${stem}/index.ts`, `${stem}/index.js`].find((candidate) => statSync(path.join(root, candidate), { throwIfNoEntry: false })?.isFile());
}

async function reachable(root: string, entries: string[]): Promise<Set<string>> {
	const seen = new Set<string>();
	const queue = [...entries];
	while (queue.length > 0) {
		const file = queue.pop()!;
		if (seen.has(file)) continue;
		seen.add(file);
		const text = await readFile(path.join(root, file), 'utf8');
		for (const [, specifier] of text.matchAll(SPECIFIER)) {
			const target = resolve(root, file, specifier!);
			if (target && !seen.has(target)) queue.push(target);
		}
	}
	return seen;
}

let stdout: ReturnType<typeof vi.spyOn> | undefined;
beforeAll(() => {
	stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterAll(() => stdout?.mockRestore());

describe('every vendored runtime module is reachable from the app\'s imports', { timeout: 60_000 }, () => {
	const cases = [
		...['credentials', 'credentials,email', 'credentials,passkey', 'credentials,idp', 'passkey', 'email', 'idp', 'github,google', 'social', ALL].map((providers) => [
			'kit2-ts',
			providers
		]),
		['kit3-jsdoc', 'credentials,passkey'],
		['kit3-ts', `${ALL} --strategy database --adapter postgres --rate-limit redis`],
		['kit2-existing', 'credentials --strategy database --adapter drizzle']
	];
	it.each(cases)('%s, --providers %s', async (fixture, args) => {
		const app = await mkdtemp(path.join(tmpdir(), 'create-auth-reach-'));
		await cp(fixturePath(fixture!), app, { recursive: true });
		const [providers, ...rest] = args!.split(' ');
		const flags = Object.fromEntries(rest.flatMap((word, index) => (word.startsWith('--') ? [[word.slice(2).replace(/-(.)/g, (_, c: string) => c.toUpperCase()), rest[index + 1]]] : [])));
		expect(await init({ cwd: app, yes: true, install: false, providers, ...flags })).toBe(0);
		const files = await appFiles(app);
		const code = (file: string) => /\.(ts|js|svelte)$/.test(file);
		const vendored = files.filter((file) => isRuntime(file) && code(file));
		const seen = await reachable(app, files.filter((file) => !isRuntime(file) && code(file)));
		expect(vendored.filter((file) => !seen.has(file))).toEqual([]);
		await rm(app, { recursive: true });
	});
});
