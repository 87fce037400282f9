import { describe, expect, it } from 'vitest';
import type { FileOperation } from '../plan.js';
import { installStep, providerSteps, shownBase, writtenLines } from './pipeline.js';

describe('providerSteps', () => {
	it("names the callback URL to register under the app's paths.base", () => {
		expect(providerSteps(['github'])[0]).toContain('register the callback URL http://localhost:5173/auth/callback/github');
		expect(providerSteps(['github'], '/base')[0]).toContain('register the callback URL http://localhost:5173/base/auth/callback/github');
		expect(providerSteps(['github'], null)[0]).toContain('register the callback URL http://localhost:5173<paths.base>/auth/callback/github');
	});

	it('has no callback URL for providers without one', () => {
		expect(providerSteps(['credentials', 'email'], '/base').join('\n')).not.toContain('callback');
	});
});

describe('shownBase', () => {
	it('shows a base as is, and a placeholder when only the build knows it', () => {
		expect([shownBase(''), shownBase('/base'), shownBase(null)]).toEqual(['', '/base', '<paths.base>']);
	});
});

describe('installStep', () => {
	it("names the workspace root when the install runs there, not in the app", () => {
		expect(installStep({ packageManager: 'npm', root: '/app', installRoot: '/app' })).toBe('npm install');
		expect(installStep({ packageManager: 'pnpm', root: '/repo/apps/web', installRoot: '/repo' })).toBe('pnpm install   (at the workspace root, /repo)');
	});
});

describe('writtenLines', () => {
	const op = (path: string, previous?: string, deleted = false): FileOperation => ({ path, strategy: 'managed', previous, content: deleted ? undefined : 'x' });
	const runtime = (count: number, folder = 'src/lib/server/auth') => Array.from({ length: count }, (_, i) => op(`${folder}/module-${i}.ts`));
	const page = (route: string) => [op(`src/routes${route}/+page.server.ts`), op(`src/routes${route}/+page.svelte`)];

	it("sums up the vendored runtime by folder and the pages by route, and names the app's other files", () => {
		const operations = [
			...runtime(90),
			op('src/lib/server/auth/config.ts', 'old'),
			...runtime(5, 'src/lib/auth'),
			...page('/signin'),
			...page('/signin/email'),
			...page('/signup'),
			op('src/routes/+layout.server.ts'),
			op('src/auth.ts'),
			op('package.json', '{}')
		];
		expect(writtenLines(operations, 'src/lib')).toEqual([
			'  + runtime: src/lib/server/auth/ (90 files), src/lib/auth/ (5 files)',
			'  + pages: /signin and 1 page below it, /signup (6 files)',
			'  + src/routes/+layout.server.ts, src/auth.ts',
			'  ~ runtime: src/lib/server/auth/ (1 file)',
			'  ~ package.json'
		]);
	});

	it('wraps a long list under its first item, within 74 columns', () => {
		const many = Array.from({ length: 12 }, (_, i) => op(`src/lib/some-module-${i}.ts`));
		const lines = writtenLines(many, 'src/lib');
		expect(lines.length).toBeGreaterThan(2);
		expect(lines.every((line) => line.length <= 74)).toBe(true);
		expect(lines.slice(1).every((line) => line.startsWith('    src/lib/'))).toBe(true);
		expect(lines.join(' ').replace(/\s+/g, ' ')).toBe(`  + ${many.map(({ path }) => path).join(', ')}`.replace(/\s+/g, ' '));
	});

	it('names a few runtime files one by one (a regenerate that changed three), and every file with --verbose', () => {
		const few = [op('src/lib/server/auth/a.ts', 'old'), op('src/lib/server/auth/b.ts', 'old', true), op('src/routes/signin/+page.svelte')];
		expect(writtenLines(few, 'src/lib')).toEqual(['  + pages: /signin (1 file)', '  ~ src/lib/server/auth/a.ts', '  - src/lib/server/auth/b.ts']);
		expect(writtenLines([...runtime(40), op('src/auth.ts')], 'src/lib', true)).toEqual([...runtime(40), op('src/auth.ts')].map(({ path }) => `  + ${path}`));
	});

	it('names pages added below an existing page by where they are (add-provider email)', () => {
		expect(writtenLines([...page('/signin/email'), op('src/routes/signin/verify-request/+page.svelte'), op('src/routes/signin/+page.svelte', 'old')], 'src/lib')).toEqual([
			'  + pages: 2 pages below /signin (3 files)',
			'  ~ pages: /signin (1 file)'
		]);
	});

	it('takes the runtime where the app keeps its lib folder', () => {
		expect(writtenLines(runtime(10, 'app/lib/server/auth'), 'app/lib')).toEqual(['  + runtime: app/lib/server/auth/ (10 files)']);
	});
});
