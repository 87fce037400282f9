import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` (CLI and runtime modules, frozen clock, no network) and `e2e` (real
 * SvelteKit apps, real browser; slow, so run on their own, after `unit`); each runs two files at a
 * time, one per core of the project's machines.
 *
 * The runtime imports only its own modules (relative paths) and `@sveltejs/kit`, so it runs
 * here as it does in an app. Every run ends with its slowest files and tests and its failures
 * (scripts/test-report.js).
 */
export default defineConfig({
	test: {
		reporters: ['default', './scripts/test-report.js'],
		maxWorkers: 2,
		projects: [
			{
				plugins: [svelte({ compilerOptions: { runes: true } })],
				test: {
					name: 'unit',
					include: ['src/**/*.test.ts', 'runtime/**/*.test.ts', 'bench/**/*.test.js', 'scripts/**/*.test.js', 'e2e/harness/**/*.test.js'],
					// scrypt at a low cost, but where the cost is what a test is about (runtime/test/scrypt-cost.ts).
					setupFiles: ['./runtime/test/scrypt-cost.ts'],
					// Two files share the 2 cores: a test that takes 2 s alone can take 10 on a loaded machine.
					testTimeout: 30_000,
					hookTimeout: 60_000,
					environment: 'node'
				}
			},
			{
				test: {
					name: 'e2e',
					include: ['e2e/**/*.test.ts'],
					setupFiles: ['./e2e/harness/ledger-check.js', './e2e/harness/server-exits.js'],
					// The slowest test (an install and a build in its body) takes 85 s on a loaded
					// machine, a file's beforeAll making its apps a few minutes: a hang costs this much.
					testTimeout: 240_000,
					hookTimeout: 600_000
				}
			}
		]
	}
});
