import { DRIZZLE_CONFIGS } from './drizzle.js';
import { PRISMA_CONFIGS } from './prisma.js';
import { WRANGLER_CONFIGS } from './wrangler.js';
import { MANIFEST_PATH } from './manifest.js';
import { FEATURES } from './features/index.js';
import { PROVIDERS } from './providers/index.js';
import type { Descriptor } from './providers/types.js';

/**
 * The app files the plan writes whole or patches, outside the vendored runtime, by what they
 * are. Modules are named as the templates name them (`.ts`); in the app each lands at, or is
 * found at, its `.js` twin too (the plan's `userPath`).
 */
export const APP_FILES = {
	auth: 'src/auth.ts',
	authorization: 'src/authorization.ts',
	hooks: 'src/hooks.server.ts',
	layout: 'src/routes/+layout.server.ts',
	envModule: 'src/env.ts',
	appTypes: 'src/app.d.ts',
	env: '.env',
	envExample: '.env.example',
	gitignore: '.gitignore'
} as const;

/** The pages every app gets, as template paths under `templates/routes/` (app paths under `src/routes/`). */
const APP_ROUTES = [
	'signin/+page.server.ts',
	'signin/+page.svelte',
	'signout/+page.server.ts',
	'signout/+page.svelte',
	'account/+page.server.ts',
	'account/+page.svelte'
];

/**
 * The pages an app with these descriptors (providers, features) gets, as template paths under
 * `templates/routes/`: every app's, then each descriptor's in order. A page two descriptors
 * share (the sign-up page of passwords and passkeys) is named once.
 */
export function routesFor(descriptors: readonly Pick<Descriptor, 'routes'>[]): string[] {
	return [...new Set([...APP_ROUTES, ...descriptors.flatMap(({ routes }) => routes)])];
}

/**
 * Every app-relative path a plan may write, patch or must see, whatever the answers: the files
 * of {@link APP_FILES}, the pages of every provider and feature (under `src/routes/`), each `.ts` module with
 * its `.js` twin, the manifest, the Drizzle configs and the Wrangler configs. The loader reads them all, so a plan
 * never takes a file on disk for an absent one.
 *
 * Not named here, because they depend on the app rather than the answers: the vendored runtime
 * (below the lib folder), package.json, the workspace root's files and the Drizzle schema.
 */
export function plannedPaths(): string[] {
	const routes = routesFor([...PROVIDERS, ...FEATURES]).map((route) => `src/routes/${route}`);
	const withTwins = [...Object.values(APP_FILES), ...routes].flatMap((file) => (file.endsWith('.ts') && !file.endsWith('.d.ts') ? [file, file.replace(/\.ts$/, '.js')] : [file]));
	return [...withTwins, MANIFEST_PATH, ...DRIZZLE_CONFIGS, ...PRISMA_CONFIGS, ...WRANGLER_CONFIGS];
}
