import type { Node } from '@babel/types';
import { parseModule } from './edits/ast.js';

/**
 * How generated code must be written for the app's SvelteKit: the files the user owns
 * (`src/auth.ts`, hooks, routes, `app.d.ts`) are rendered from it; the vendored runtime is the
 * same for every shape.
 */
export interface KitShape {
	/** Major version of `@sveltejs/kit`: the installed one, else the declared range's. */
	major: number;
	/**
	 * The lib folder is imported through Node subpath imports (`#lib/…/index.js`, file extension
	 * required) instead of the `$lib` alias, which SvelteKit 3 removed.
	 */
	libImports: boolean;
	/**
	 * Explicit environment variables: declared in `src/env.ts` and read from `$app/env/private`,
	 * with `$app/env` in place of `$app/environment`. Always on SvelteKit 3; on SvelteKit 2 (2.62+)
	 * when `experimental.explicitEnvironmentVariables` is set.
	 */
	explicitEnv: boolean;
	/** `getRequestEvent` is in `$app/server` (SvelteKit 2.20+): `src/auth.ts` hands it to the runtime. */
	requestEvent: boolean;
	/**
	 * `resolve` is in `$app/paths` (SvelteKit 2.26+; the one way SvelteKit 3 names `paths.base`):
	 * pages link through it and `src/auth.ts` hands it to the runtime, so both follow the base.
	 */
	resolve: boolean;
	/**
	 * The runtime's lib folders (`server/auth`, `auth`) that an app module of the same name
	 * shadows (`src/lib/server/auth.ts`): generated code imports their index by name
	 * (`libSpecifier` in render.ts; `ExistingAuth.shadowed` in existing-auth.ts). Absent: none.
	 */
	shadowedLibFolders?: readonly string[];
}

/**
 * The oldest Node a SvelteKit major runs on, as [major, minor], where that is newer than the
 * Node this CLI needs (20.19): SvelteKit 2 runs on any of those.
 */
const MIN_NODE: Record<number, [number, number]> = { 3: [22, 17] };

/**
 * The SvelteKit major of an app.
 *
 * @param installed the `version` of `node_modules/@sveltejs/kit/package.json`, when installed
 * @param range the range the app declares (`^2.5.0`, `^3.0.0-next.0`, `latest`, …)
 * @returns the installed major; else the range's first number; else (`latest`, `*`, a tag) 3,
 *   the newest major
 */
export function kitMajor(installed: string | undefined, range: string): number {
	const major = /\d+/.exec(installed ?? '')?.[0] ?? /\d+/.exec(range)?.[0];
	return major === undefined ? 3 : Number(major);
}

/**
 * Whether the app's SvelteKit has `getRequestEvent` (2.20+): the installed version, else the
 * lowest version the declared range allows; a range with no version (`latest`) means the newest.
 */
export function hasRequestEvent(installed: string | undefined, range: string): boolean {
	return kitAtLeast(installed, range, 20);
}

/** Whether the app's SvelteKit has `resolve` in `$app/paths` (2.26+), read as {@link hasRequestEvent} reads it. */
export function hasResolve(installed: string | undefined, range: string): boolean {
	return kitAtLeast(installed, range, 26);
}

/** Whether the installed SvelteKit, else the lowest the range allows, is 2.`minor` or later; a range with no version means the newest. */
function kitAtLeast(installed: string | undefined, range: string, minor: number): boolean {
	const version = /(\d+)\.(\d+)/.exec(installed ?? '') ?? /(\d+)(?:\.(\d+))?/.exec(range);
	if (!version) return true;
	const [major, found] = [Number(version[1]), Number(version[2] ?? 0)];
	return major > 2 || (major === 2 && found >= minor);
}

/**
 * The app's lib folder and how it is imported, from package.json's `imports` field.
 *
 * @param imports package.json's `imports` (anything: it is the user's JSON)
 * @returns `libImports` true when `#lib/*` is mapped, with `libDir` its target folder
 *   (`./src/lib/*` → `src/lib`); otherwise the `$lib` alias and `src/lib`
 */
export function libFolder(imports: unknown): { libImports: boolean; libDir: string } {
	const target = imports && typeof imports === 'object' ? (imports as Record<string, unknown>)['#lib/*'] : undefined;
	const dir = typeof target === 'string' ? /^\.\/(.+)\/\*$/.exec(target)?.[1] : undefined;
	return dir ? { libImports: true, libDir: dir } : { libImports: false, libDir: 'src/lib' };
}

/**
 * Whether a `svelte.config.js` or `vite.config.*` text turns on explicit environment variables
 * (`explicitEnvironmentVariables: true`, under `kit.experimental` or the `sveltekit()` plugin's
 * `experimental`). A text that does not parse counts as off.
 */
export function enablesExplicitEnv(source: string): boolean {
	const ast = parseModule(source);
	if (!ast) return false;
	let found = false;
	const visit = (node: unknown): void => {
		if (found || !node || typeof node !== 'object') return;
		if (Array.isArray(node)) return node.forEach(visit);
		const n = node as Node;
		if (
			n.type === 'ObjectProperty' &&
			!n.computed &&
			((n.key.type === 'Identifier' && n.key.name === 'explicitEnvironmentVariables') ||
				(n.key.type === 'StringLiteral' && n.key.value === 'explicitEnvironmentVariables')) &&
			n.value.type === 'BooleanLiteral' &&
			n.value.value
		) {
			found = true;
			return;
		}
		for (const [key, value] of Object.entries(n)) {
			if (key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments') visit(value);
		}
	};
	visit(ast.program);
	return found;
}

/**
 * The oldest Node.js the app's SvelteKit runs on, or undefined when `running` (a
 * `process.versions.node` string) is recent enough.
 *
 * @returns e.g. `'22.17'` when SvelteKit 3 meets Node 20
 */
export function missingNode(kit: Pick<KitShape, 'major'>, running: string): string | undefined {
	const needed = MIN_NODE[kit.major];
	if (!needed) return undefined;
	const [major = 0, minor = 0] = running.split('.').map(Number);
	const old = major < needed[0] || (major === needed[0] && minor < needed[1]);
	return old ? needed.join('.') : undefined;
}
