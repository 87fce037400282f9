import type { Manifest } from '../manifest.js';
import { twoFactor } from '../features/two-factor.js';
import type { Check } from './check.js';
import type { DoctorInput } from './gather.js';

const REMOVE = 'or run npx create-auth remove-feature two-factor to take it out everywhere.';

/**
 * In an app set up with two-factor authentication (`answers.twoFactor`), one `two-factor` check:
 * - error when `src/auth.(ts|js)` passes no `TwoFactor()`: users who turned it on then sign in
 *   with their first factor alone, and the account page shows no section;
 * - error when the second step's page (`/signin/two-factor`, its `+page.server`) the manifest
 *   records is gone: a user with it on is sent to a 404 and cannot finish signing in;
 * - error when a package the feature needs (`otpauth`, `uqr`) is not among the app's dependencies;
 * - ok otherwise. Apps without it get no check.
 * (Its tables are `adapter-migrations`'s `0003_two_factor`; a secret rotation, `auth-secret-1`'s.)
 */
export function twoFactorChecks(input: Pick<DoctorInput, 'files' | 'dependencies'> & { manifest: Manifest }): Check[] {
	const { manifest, files, dependencies } = input;
	if (!manifest.answers.twoFactor) return [];
	const authFile = ['src/auth.ts', 'src/auth.js'].find((file) => files[file] !== undefined);
	if (authFile && !/\bTwoFactor\s*\(/.test(files[authFile]!)) {
		return [
			{
				id: 'two-factor',
				status: 'error',
				message: `${authFile} passes no TwoFactor(), though the app was set up with two-factor authentication: users who turned it on sign in without their code.`,
				hint: `Put twoFactor: TwoFactor() back in its config (see docs/api.md#two-factor-authentication), ${REMOVE}`
			}
		];
	}
	const page = Object.keys(manifest.files).find((file) => /\/signin\/two-factor\/\+page\.server\.(ts|js)$/.test(file));
	if (page && files[page] === undefined) {
		return [
			{
				id: 'two-factor',
				status: 'error',
				message: `${page} is missing: users with two-factor on are sent to a page that does not exist and cannot finish signing in.`,
				hint: `Run npx create-auth regenerate --restore ${page}, ${REMOVE}`
			}
		];
	}
	const missing = (twoFactor.dependencies ?? []).filter((name) => !(name in dependencies));
	if (missing.length > 0) {
		return [
			{
				id: 'two-factor',
				status: 'error',
				message: `Two-factor authentication needs ${missing.join(' and ')}, which package.json does not list: the app fails to load its auth config.`,
				hint: `Install ${missing.join(' ')} with your package manager.`
			}
		];
	}
	return [{ id: 'two-factor', status: 'ok', message: 'Two-factor authentication is set up: TwoFactor() in the config, its page and its packages.' }];
}
