import { oauthProvider } from './oauth.js';

/** Sign-in with Google (OpenID Connect). */
export const google = oauthProvider({
	id: 'google',
	label: 'Google',
	hint: 'needs an OAuth client registered at Google Cloud',
	imports: [{ names: 'Google', module: 'server/auth/providers/google' }],
	env: [
		{ key: 'AUTH_GOOGLE_ID', description: 'The client id of your Google OAuth client.' },
		{ key: 'AUTH_GOOGLE_SECRET', description: 'The client secret of your Google OAuth client. Keep it secret.' }
	]
});
