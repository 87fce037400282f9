import type { Manifest } from './manifest.js';

/**
 * Runtime modules that releases moved, lib-relative (`server/auth/cookies.ts`, as
 * `runtime/` names them): old path → new path. The plan carries the app's copy of the old file
 * to the new path through the same 3-way merge as any managed file, with the manifest's record
 * of the old path as the base, so a user's edit of a moved module is kept there (or marked as a
 * conflict) instead of being left behind as an orphan. Entries stay as long as an app of an old
 * release may be upgraded; `renames.test.ts` checks each new path exists in the runtime.
 *
 * 0.2.0 (issue 27) moved the flat `runtime/server/auth/` into folders by concern; a module it
 * split (`session.ts`, `password-account.ts`) maps to the part that kept most of its text.
 */
export const RUNTIME_MOVES: Readonly<Record<string, string>> = {
	'server/auth/accounts.ts': 'server/auth/oauth/accounts.ts',
	'server/auth/actions.ts': 'server/auth/signin/actions.ts',
	'server/auth/app-paths.ts': 'server/auth/http/app-paths.ts',
	'server/auth/cookies.ts': 'server/auth/session/cookies.ts',
	'server/auth/email-address.ts': 'server/auth/email/address.ts',
	'server/auth/email-verification.ts': 'server/auth/email/verification.ts',
	'server/auth/email.ts': 'server/auth/signin/email.ts',
	'server/auth/form.ts': 'server/auth/http/form.ts',
	'server/auth/guards.ts': 'server/auth/http/guards.ts',
	'server/auth/jwt.ts': 'server/auth/session/jwt.ts',
	'server/auth/mail.ts': 'server/auth/email/mail.ts',
	'server/auth/password-account.ts': 'server/auth/passwords/change.ts',
	'server/auth/rate-limit.ts': 'server/auth/limits/rate-limit.ts',
	'server/auth/redirects.ts': 'server/auth/http/redirects.ts',
	'server/auth/routes.ts': 'server/auth/signin/routes.ts',
	'server/auth/see-other.ts': 'server/auth/http/see-other.ts',
	'server/auth/session-cache.ts': 'server/auth/session/cache.ts',
	'server/auth/session.ts': 'server/auth/session/session.ts',
	'server/auth/signin.ts': 'server/auth/signin/finish.ts',
	'server/auth/signup.ts': 'server/auth/passwords/signup.ts',
	'server/auth/verification-tokens.ts': 'server/auth/email/verification-tokens.ts',
	'server/auth/webauthn.ts': 'server/auth/webauthn/ceremonies.ts'
};

/**
 * Where the app's copy of a managed runtime file comes from when its path is new: the old path
 * (app-relative) whose manifest record and file on disk stand in for this one, or undefined when
 * the file did not move or the app's manifest never recorded the old path.
 *
 * @param appPath the file's app-relative path (`src/lib/server/auth/session/cookies.ts`)
 * @param libDir the app's lib folder (`src/lib`)
 * @param manifest the app's manifest before this run, if any
 */
export function movedFrom(appPath: string, libDir: string, manifest: Manifest | undefined): string | undefined {
	if (!manifest || manifest.files[appPath]) return undefined;
	const prefix = `${libDir}/`;
	if (!appPath.startsWith(prefix)) return undefined;
	const file = appPath.slice(prefix.length);
	const old = Object.entries(RUNTIME_MOVES).find(([, to]) => to === file)?.[0];
	return old !== undefined && manifest.files[prefix + old]?.strategy === 'managed' ? prefix + old : undefined;
}

/**
 * Where a managed runtime file of an earlier release went: the new app-relative path, or
 * undefined when {@link RUNTIME_MOVES} does not name it.
 *
 * @param appPath the old file's app-relative path (`src/lib/server/auth/cookies.ts`)
 * @param libDir the app's lib folder (`src/lib`)
 */
export function movedTo(appPath: string, libDir: string): string | undefined {
	const prefix = `${libDir}/`;
	if (!appPath.startsWith(prefix)) return undefined;
	const to = RUNTIME_MOVES[appPath.slice(prefix.length)];
	return to === undefined ? undefined : prefix + to;
}
