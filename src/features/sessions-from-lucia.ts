import type { FeatureDescriptor } from '../providers/types.js';

/**
 * Lucia's sessions and passwords, honoured after `create-auth switch` moved an app made after
 * Lucia's guide (`sv add lucia`) to create-auth (answers `previous: ['lucia']`): `src/auth.ts`
 * hands the runtime `luciaSessions()` in `previousSessions`, so a browser signed in with Lucia
 * stays signed in (its `auth-session` cookie's token finds the copied session row, once, and is
 * replaced). Lucia's argon2id password hashes are verified with `@node-rs/argon2` at each
 * user's next sign-in and replaced by the runtime's own. Its users have a username and often no
 * address: the sign-in form's address field takes either (`usernames`).
 */
export const sessionsFromLucia: FeatureDescriptor = {
	id: 'sessions-from-lucia',
	label: "Lucia's sessions",
	chosen: (answers) => answers.previous?.includes('lucia') === true,
	imports: [{ names: '{ luciaSessions }', module: 'server/auth/switch/lucia' }],
	dependencies: ['@node-rs/argon2'],
	env: [],
	routes: [],
	sections: ['auth/config'],
	usernames: true
};
