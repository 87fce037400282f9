import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree, uniqueCirculars, type DependencyTree } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Each tree with its own tsconfig, so a specifier resolves as `npm run typecheck` resolves it
 * (`./config.js` to `config.ts`; NodeNext for the CLI, bundler for the runtime). Type-only
 * imports count: erased at run time, they still make two modules that cannot be read, moved or
 * vendored one without the other (an app's type check needs every module a vendored one
 * imports, types included). Files under `fixtures` are app code the tests edit, not ours.
 * Svelte components are leaves of the graph (dpdm reads script modules only); the runtime's
 * import nothing of ours.
 */
const TREES = [
	{ files: 'src/**/*.ts', tsconfig: 'tsconfig.json' },
	{ files: 'runtime/**/*.ts', tsconfig: 'runtime/tsconfig.json' }
];

async function importGraph(): Promise<DependencyTree> {
	const trees = await Promise.all(
		TREES.map(({ files, tsconfig }) =>
			parseDependencyTree(files, { cwd: REPO, context: REPO, tsconfig, exclude: /node_modules|\/fixtures\//, skipDynamicImports: false, transform: false })
		)
	);
	return Object.assign({}, ...trees);
}

describe('imports', () => {
	let graph: DependencyTree;
	beforeAll(async () => {
		graph = await importGraph();
	});

	it('form no cycle in src/ or runtime/, static, dynamic or type-only', () => {
		const cycles = uniqueCirculars(parseCircular(graph)).map((cycle) => [...cycle, cycle[0]].join(' -> '));
		expect(cycles).toEqual([]);
	});

	it('are followed whether static, dynamic or type-only, each to a file of the repository', () => {
		const targets = (file: string) => (graph[file] ?? []).map(({ id }) => id);
		expect(targets('runtime/server/auth/kit.ts')).toContain('runtime/server/auth/config.ts');
		expect(targets('src/cli.ts')).toContain('src/errors.ts');
		expect(targets('src/cli.ts')).toContain('src/commands/regenerate.ts'); // import('./commands/regenerate.js')
		expect(targets('src/adapters.ts')).toContain('src/drizzle.ts'); // import type
		// An import left unresolved would hide a cycle through it.
		const unresolved = Object.values(graph)
			.flatMap((dependencies) => dependencies ?? [])
			.filter(({ request, id }) => request.startsWith('.') && id === null)
			.map(({ issuer, request }) => `${issuer}: ${request}`);
		expect(unresolved).toEqual([]);
	});
});
