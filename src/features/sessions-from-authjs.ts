import type { FeatureDescriptor } from '../providers/types.js';

/**
 * Auth.js's sessions, honoured after `create-auth switch` moved an app off `@auth/sveltekit`
 * (answers `previous: ['authjs']`): `src/auth.ts` hands the runtime `authjsSessions()` in
 * `previousSessions`, so a browser signed in with Auth.js stays signed in (its
 * `authjs.session-token` cookie is opened with the app's own `AUTH_SECRET`, the variable Auth.js
 * read too, once, and replaced). Its config entry is the section `auth/config` of `src/auth.ts`.
 */
export const sessionsFromAuthjs: FeatureDescriptor = {
	id: 'sessions-from-authjs',
	label: "Auth.js's sessions",
	chosen: (answers) => answers.previous?.includes('authjs') === true,
	imports: [{ names: '{ authjsSessions }', module: 'server/auth/switch/authjs' }],
	env: [],
	routes: [],
	sections: ['auth/config']
};
