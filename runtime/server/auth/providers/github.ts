// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { oauthFlow } from '../signin/oauth.js';
import { withOptions } from './merge.js';
import { customFetch, type OAuth2Config, type OAuthUserConfig, type Profile } from './types.js';

/** What `GET https://api.github.com/user` answers (the fields used here). */
export interface GitHubProfile extends Profile {
	id: string;
	login: string;
	name: string | null;
	email: string | null;
	avatar_url: string;
}

const API = 'https://api.github.com';

/**
 * GitHub sign-in (OAuth 2, not OpenID Connect): authorization code flow with PKCE and `state`,
 * scope `read:user user:email`; the profile from `/user`, and the primary verified address
 * from `/user/emails` when the profile's email is private. Create an OAuth App in GitHub's
 * developer settings with the callback URL `<origin>/auth/callback/github`.
 */
export default function GitHub<P extends GitHubProfile = GitHubProfile>(options: OAuthUserConfig<P>): OAuth2Config<P> {
	return withOptions<P, OAuth2Config<P>>(
		{
			id: 'github',
			name: 'GitHub',
			type: 'oauth',
			flow: oauthFlow,
			issuer: 'https://github.com/login/oauth',
			authorization: { url: 'https://github.com/login/oauth/authorize', params: { scope: 'read:user user:email' } },
			token: 'https://github.com/login/oauth/access_token',
			userinfo: {
				url: `${API}/user`,
				async request({ tokens, provider }) {
					const get = async (path: string) => {
						const response = await (provider[customFetch] ?? fetch)(`${API}${path}`, {
							headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/vnd.github+json', 'user-agent': 'create-auth' }
						});
						if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}.`);
						return response.json();
					};
					const profile = (await get('/user')) as P;
					if (!profile.email) {
						const emails = (await get('/user/emails')) as { email: string; primary: boolean; verified: boolean }[];
						profile.email = emails.find((e) => e.primary && e.verified)?.email ?? null;
					}
					return profile;
				}
			},
			checks: ['pkce', 'state'],
			profile: (profile) => ({ id: String(profile.id), name: profile.name ?? profile.login, email: profile.email, image: profile.avatar_url }),
			style: { brandColor: '#24292f' }
		},
		options
	);
}
