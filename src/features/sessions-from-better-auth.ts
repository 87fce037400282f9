import type { FeatureDescriptor } from '../providers/types.js';

/** The variable holding the secret Better Auth signed its session cookies with. */
export const BETTER_AUTH_SECRET = 'BETTER_AUTH_SECRET';

/**
 * Better Auth's sessions, honoured after `create-auth switch` moved an app off Better Auth
 * (answers `previous: ['better-auth']`): `src/auth.ts` hands the runtime
 * `betterAuthSessions({ secret })` in `previousSessions`, so a browser signed in with Better Auth
 * stays signed in (its `better-auth.session_token` cookie is verified with `BETTER_AUTH_SECRET`,
 * read once and replaced). Its config entry is the section `auth/config` of `src/auth.ts`; the
 * secret stays in `.env` as Better Auth had it.
 */
export const sessionsFromBetterAuth: FeatureDescriptor = {
	id: 'sessions-from-better-auth',
	label: "Better Auth's sessions",
	chosen: (answers) => answers.previous?.includes('better-auth') === true,
	imports: [{ names: '{ betterAuthSessions }', module: 'server/auth/switch/better-auth' }],
	env: [
		{
			key: BETTER_AUTH_SECRET,
			description: "The secret Better Auth signed its session cookies with: users signed in before the switch to create-auth stay signed in while it is set",
			hint: "Set it to the secret Better Auth used (its BETTER_AUTH_SECRET): without it, every user signed in before the switch is signed out."
		}
	],
	routes: [],
	sections: ['auth/config']
};
