import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Two projects: `unit` (CLI and runtime modules, frozen clock, no network) and `e2e`
 * (real SvelteKit apps, real browser; slow, so run on their own and in series).
 *
 * The runtime is written for a SvelteKit app, so the SvelteKit virtual modules it imports
 * (`$env/dynamic/private`, `$app/environment`) and the `$lib/auth` alias it uses to reach its
 * client-safe half resolve here to small stand-ins and to `runtime/client`.
 */
export default defineConfig({
	test: {
		projects: [
			{
				plugins: [svelte({ compilerOptions: { runes: true } })],
				resolve: {
					alias: {
						'$lib/auth': here('./runtime/client'),
						'$env/dynamic/private': here('./runtime/test/env.ts'),
						'$app/environment': here('./runtime/test/environment.ts')
					}
				},
				test: {
					name: 'unit',
					include: ['src/**/*.test.ts', 'runtime/**/*.test.ts'],
					environment: 'node'
				}
			},
			{
				test: {
					name: 'e2e',
					include: ['e2e/**/*.test.ts'],
					testTimeout: 600_000,
					hookTimeout: 900_000,
					fileParallelism: false
				}
			}
		]
	}
});
