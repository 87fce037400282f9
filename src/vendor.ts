import path from 'node:path';
import { initSync, parse } from 'es-module-lexer';

/**
 * Which runtime files an app gets: those its generated files can reach through imports. The
 * runtime (`runtime/`, keyed like `server/auth/index.ts` or `auth/SignIn.svelte`, as
 * `loadRuntime` in `assets.ts` reads it) is a graph of relative imports; an app is vendored the
 * part reachable from the modules its generated files import (`server/auth/index.ts`,
 * `server/auth/providers/github.ts`, `server/auth/adapters/sqlite.ts`, `auth/index.ts`, …), so
 * a provider's code (OAuth, OAuth 1.0a, WebAuthn, email links, passwords) lands only in apps
 * that chose it. See docs/architecture.md#the-runtime.
 *
 * Followed: static `import` (`import type` too: an app's type check needs those modules),
 * `export … from`, `import()` with a string literal, and TypeScript's `import('./x').T` types.
 * Only relative specifiers name runtime files; packages and `$app/*` are the app's business.
 * `./x.js` resolves to `x.ts` (as TypeScript resolves it), `./x` to `x.ts` or `x/index.ts`,
 * `./X.svelte` to itself, whose `<script>` blocks are read in turn. Files that nothing imports
 * (SQL migrations, the Drizzle schema an app re-exports) are not reached: the CLI picks those
 * per adapter, as before.
 *
 * @param runtime the runtime's files, key → text
 * @param entries keys of the modules to start from; with or without extension (`server/auth/index`)
 * @returns the entries and every runtime file they reach, as keys of `runtime`
 * @throws {Error} an entry or a file it reaches that is not in `runtime`'s keys under any of the
 *   names above (a typo, or a runtime module that imports a file the package does not ship), or
 *   a reached module that does not parse
 */
export function runtimeClosure(runtime: Record<string, string>, entries: Iterable<string>): Set<string> {
	const reached = new Set<string>();
	const pending: string[] = [];
	for (const entry of entries) {
		const file = resolveKey(runtime, entry);
		if (!file) throw new Error(`runtimeClosure: no runtime file ${entry}.`);
		pending.push(file);
	}
	while (pending.length > 0) {
		const file = pending.pop()!;
		if (reached.has(file)) continue;
		reached.add(file);
		for (const specifier of importedSpecifiers(file, runtime[file]!)) {
			if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
			const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
			const resolved = resolveKey(runtime, target);
			if (!resolved) throw new Error(`runtimeClosure: ${file} imports ${specifier}, which is not a runtime file.`);
			pending.push(resolved);
		}
	}
	return reached;
}

/** The key of `runtime` a module path names, trying what TypeScript's bundler resolution tries. */
function resolveKey(runtime: Record<string, string>, base: string): string | undefined {
	const candidates = base.endsWith('.js')
		? [base.replace(/\.js$/, '.ts'), base]
		: /\.(ts|svelte|json)$/.test(base)
			? [base]
			: [`${base}.ts`, `${base}/index.ts`, `${base}.js`, `${base}/index.js`, base];
	return candidates.find((candidate) => Object.hasOwn(runtime, candidate));
}

/** A Svelte component's `<script>` and `<script module>` blocks (instance and module scripts). */
const SCRIPT_BLOCK = /<script\b[^>]*>([\s\S]*?)<\/script>/g;

/**
 * Every module specifier `file` names in an import: the source of its import and export-from
 * declarations (`import type` too), of `import('literal')` calls and of `import('literal').T`
 * types. Read by es-module-lexer, which lexes the import and export statements of a module
 * (TypeScript's included) without building a syntax tree: a tenth of a parse's time, which a
 * no-op `regenerate` pays for every runtime module it reaches.
 * @throws {Error} the module (or one of a component's scripts) does not lex
 */
export function importedSpecifiers(file: string, text: string): string[] {
	initSync();
	const sources = file.endsWith('.svelte') ? [...text.matchAll(SCRIPT_BLOCK)].map((match) => match[1]!) : [text];
	const found: string[] = [];
	for (const source of sources) {
		let imports: ReturnType<typeof parse>[0];
		try {
			[imports] = parse(source, file);
		} catch {
			throw new Error(`runtimeClosure: ${file} does not parse.`);
		}
		// `n` is the specifier when it is a string literal (dynamic imports of expressions have none).
		for (const { n } of imports) if (n !== undefined) found.push(n);
	}
	return found;
}
