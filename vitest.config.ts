import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (CLI and runtime modules, frozen clock, no network) and `e2e`
 * (real SvelteKit apps, real browser; slow, so run on their own and in series).
 *
 * The runtime imports only its own modules (relative paths) and `@sveltejs/kit`, so it runs
 * here as it does in an app.
 */
export default defineConfig({
	test: {
		projects: [
			{
				plugins: [svelte({ compilerOptions: { runes: true } })],
				test: {
					name: 'unit',
					include: ['src/**/*.test.ts', 'runtime/**/*.test.ts', 'bench/**/*.test.js'],
					// scrypt at a low cost, but where the cost is what a test is about (runtime/test/scrypt-cost.ts).
					setupFiles: ['./runtime/test/scrypt-cost.ts'],
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
