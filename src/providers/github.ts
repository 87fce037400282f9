import { oauthProvider } from './oauth.js';

/** Sign-in with GitHub (OAuth 2). */
export const github = oauthProvider({
	id: 'github',
	label: 'GitHub',
	hint: 'needs an OAuth app registered at GitHub',
	imports: [{ names: 'GitHub', module: 'server/auth/providers/github' }],
	env: [
		{ key: 'AUTH_GITHUB_ID', description: 'The client id of your GitHub OAuth app.' },
		{ key: 'AUTH_GITHUB_SECRET', description: 'The client secret of your GitHub OAuth app. Keep it secret.' }
	]
});
