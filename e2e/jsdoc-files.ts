/**
 * What a JSDoc app (`jsconfig.json`) must hold once `create-auth` has run in it: the modules the
 * user owns as `.js` files with JSDoc types and no `.ts` twin, and pages whose `<script>` is
 * JavaScript. The vendored runtime under `src/lib` stays TypeScript, as in every app.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';

/** The pages create-auth writes, under `src/routes/`. */
const ROUTES = ['account', 'signin', 'signout', 'signup'];

/**
 * Asserts the app's auth files are JavaScript.
 * @param modules besides the route modules, the `src/` modules to find as `.js`, without extension
 *   (`auth`, `hooks.server`, …)
 */
export async function expectJsdocFiles(appDir: string, modules: string[]): Promise<void> {
	const read = (file: string) => fs.readFile(path.join(appDir, 'src', file), 'utf8');
	for (const module of [...modules, 'routes/+layout.server', ...ROUTES.map((route) => `routes/${route}/+page.server`)]) {
		await expect(read(`${module}.js`), `src/${module}.js`).resolves.toEqual(expect.any(String));
		await expect(read(`${module}.ts`), `src/${module}.ts`).rejects.toThrow();
	}
	for (const route of ROUTES) expect(await read(`routes/${route}/+page.svelte`), route).toMatch(/^<script>\n/);
	expect(await read('routes/signin/+page.server.js')).toContain(
		"/** @satisfies {import('./$types').Actions} */\nexport const actions = { default: signIn };"
	);
	expect(await read('routes/+layout.server.js')).toContain("/** @type {import('./$types').LayoutServerLoad} */");
	await expect(read('lib/server/auth/index.ts')).resolves.toContain('SvelteKitAuth');
}
