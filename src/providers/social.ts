import { oauthProvider } from './oauth.js';

/** Sign-in with the social network (the X API v2): OAuth 2 with PKCE; `version: '1.0a'` for OAuth 1.0a. */
export const social = oauthProvider({
	id: 'social',
	label: 'Social network (X)',
	hint: 'needs an app registered in the X developer portal; no email with OAuth 2',
	imports: [{ names: 'Social', module: 'server/auth/providers/social' }],
	env: [
		{ key: 'AUTH_SOCIAL_ID', description: 'The OAuth 2 client id of your X app (the API key with version 1.0a).' },
		{ key: 'AUTH_SOCIAL_SECRET', description: 'The OAuth 2 client secret of your X app (the API key secret with version 1.0a). Keep it secret.' }
	],
	// OAuth 1.0a (`version: '1.0a'`) signs its requests with this package; only social's module reaches that code.
	dependencies: ['oauth-1.0a']
});
