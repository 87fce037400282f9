import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Node } from '@babel/types';
import { parseModule, propertyName } from './edits/ast.js';

/** Where a SvelteKit app is configured: SvelteKit 2's `svelte.config.js`, the Vite config (SvelteKit 3's `sveltekit()` options). */
export const KIT_CONFIG_FILES = ['svelte.config.js', 'vite.config.ts', 'vite.config.js', 'vite.config.mjs'];

/**
 * The app's `paths.base` from the texts of its {@link KIT_CONFIG_FILES} (in that order; `''`
 * for a missing file): the first one that sets it ({@link configuredBase}).
 *
 * @returns the base (`'/base'`), `''` when no file sets one, `null` when only the build knows it
 */
export function baseOf(configs: readonly string[]): string | null {
	for (const config of configs) {
		const base = configuredBase(config);
		if (base !== undefined) return base;
	}
	return '';
}

/**
 * {@link baseOf} the app at `root`, reading its config files (an unreadable one counts as absent).
 *
 * @param root the app's folder
 */
export async function readBase(root: string): Promise<string | null> {
	return baseOf(await Promise.all(KIT_CONFIG_FILES.map((file) => readFile(path.join(root, file), 'utf8').catch(() => ''))));
}

/**
 * The `paths.base` a `svelte.config.js` or `vite.config.*` text sets (`kit.paths.base` in
 * SvelteKit 2's svelte.config.js, `paths.base` in the options of the `sveltekit()` plugin):
 * used where the CLI prints URLs of the app, such as the callback URL to register at a provider.
 *
 * @returns the base when it is a string literal (`'/base'`, `''`); `null` when it is set to
 *   something only the build knows (`process.env.BASE_PATH`, a variable, a template); undefined
 *   when the text sets none or does not parse
 * @see https://svelte.dev/docs/kit/configuration#paths
 */
export function configuredBase(source: string): string | null | undefined {
	const ast = parseModule(source);
	if (!ast) return undefined;
	let found: string | null | undefined;
	const visit = (node: unknown): void => {
		if (found !== undefined || !node || typeof node !== 'object') return;
		if (Array.isArray(node)) return node.forEach(visit);
		const n = node as Node;
		if (n.type === 'ObjectProperty' && propertyName(n) === 'paths' && n.value.type === 'ObjectExpression') {
			const base = n.value.properties.find((property) => property.type === 'ObjectProperty' && propertyName(property) === 'base');
			if (base?.type === 'ObjectProperty') found = base.value.type === 'StringLiteral' ? base.value.value : null;
			return;
		}
		for (const [key, value] of Object.entries(n)) {
			if (key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments') visit(value);
		}
	};
	visit(ast.program);
	return found;
}

