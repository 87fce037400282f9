// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { oauth1Flow } from '../oauth1/flow.js';
import { endpointRequestUrl } from '../oauth1/request.js';
import type { OAuth1Config } from '../oauth1/types.js';
import { userinfoRequest } from '../oauth1/userinfo.js';
import { oauthFlow } from '../signin/oauth.js';
import { withOptions } from './merge.js';
import { customFetch, type EndpointConfig, type OAuth2Config, type OAuthUserConfig, type Profile } from './types.js';

/**
 * The social provider's user, inside a `data` wrapper. Fields past `id`, `name` and `username`
 * come only when asked for in the `user.fields` parameter of `userinfo.params`; the pinned
 * post lands in `includes.tweets` with `expansions: 'pinned_tweet_id'`. `email` never comes
 * over OAuth 2; over OAuth 1.0a it comes when the app has the email permission.
 * @see create-auth docs/api.md#social
 */
export interface SocialProfile extends Profile {
	data: {
		id: string;
		name: string;
		username: string;
		created_at?: string;
		description?: string;
		email?: string;
		location?: string;
		pinned_tweet_id?: string;
		profile_image_url?: string;
		url?: string;
		protected?: boolean;
		verified?: boolean;
		entities?: {
			description: { hashtags: { start: number; end: number; tag: string }[] };
			url: { urls: { start: number; end: number; url: string; display_url: string; expanded_url: string }[] };
		};
	};
	includes?: { tweets?: { id: string; text: string }[] };
	[claim: string]: unknown;
}

/** The OAuth 1.0a provider config (`version: '1.0a'`), exported here: only this provider speaks OAuth 1.0a. */
export type { OAuth1Config };

/** Options of {@link Social}: any provider option, and the protocol `version`. */
export type SocialOptions<P extends SocialProfile> = OAuthUserConfig<P> & {
	/** `2.0` (the default): OAuth 2 with PKCE. `1.0a`: OAuth 1.0a, which can also give the email. */
	version?: '2.0' | '1.0a';
	/** OAuth 1.0a only: the temporary credential request endpoint. */
	requestToken?: string | EndpointConfig;
};

/** What {@link Social} returns: an OAuth 2 config, or an OAuth 1.0a one for `version: '1.0a'`. */
export type SocialConfig<P extends SocialProfile = SocialProfile> = (OAuth2Config<P> & { version: '2.0' }) | OAuth1Config<P>;

/** What the OAuth 1.0a profile resource (`1.1/account/verify_credentials.json`) answers (the fields used here). */
interface VerifyCredentials {
	id_str: string;
	name: string;
	screen_name: string;
	profile_image_url_https?: string;
	email?: string | null;
	description?: string;
	location?: string;
	url?: string | null;
	protected?: boolean;
	verified?: boolean;
}

/** The OAuth 1.0a profile in the OAuth 2 profile's shape, so that one `profile()` serves both. */
function fromVerifyCredentials(answer: VerifyCredentials): SocialProfile {
	const data: SocialProfile['data'] = { id: answer.id_str, name: answer.name, username: answer.screen_name };
	if (answer.profile_image_url_https) data.profile_image_url = answer.profile_image_url_https;
	if (answer.email) data.email = answer.email;
	for (const key of ['description', 'location', 'url'] as const) {
		const value = answer[key];
		if (value) data[key] = value;
	}
	for (const key of ['protected', 'verified'] as const) {
		const value = answer[key];
		if (typeof value === 'boolean') data[key] = value;
	}
	return { data };
}

const common = {
	id: 'social',
	name: 'Social Network',
	type: 'oauth',
	profile: ({ data }: SocialProfile) => ({ id: data.id, name: data.name, email: data.email ?? null, image: data.profile_image_url ?? null }),
	style: { brandColor: '#000000' }
} as const;

/**
 * The `social` provider (the X API). By default OAuth 2: the authorization code flow with PKCE
 * and `state`, scope `users.read tweet.read offline.access` (a refresh token), a confidential
 * client authenticating with HTTP Basic, the profile from `2/users/me` (no email). With
 * `version: '1.0a'`, OAuth 1.0a (RFC 5849): request token, `oauth/authenticate`, access token,
 * the profile from `1.1/account/verify_credentials.json?include_email=true`; the account then
 * holds `oauth_token` / `oauth_token_secret` instead of `access_token` / `refresh_token`, and
 * `clientId` / `clientSecret` are the app's API key and secret. Either way the callback URL to
 * register is `<origin>/auth/callback/social`.
 * @see create-auth docs/api.md#social
 */
export default function Social<P extends SocialProfile = SocialProfile>(options: SocialOptions<P>): SocialConfig<P> {
	if (options.version === '1.0a') {
		return withOptions<P, OAuth1Config<P>>(
			{
				...common,
				flow: oauth1Flow,
				version: '1.0a',
				requestToken: 'https://api.x.com/oauth/request_token',
				authorization: 'https://api.x.com/oauth/authenticate',
				token: 'https://api.x.com/oauth/access_token',
				userinfo: {
					url: 'https://api.x.com/1.1/account/verify_credentials.json',
					params: { include_email: 'true', skip_status: 'true', include_entities: 'false' },
					request: async ({ tokens, provider }) =>
						fromVerifyCredentials((await userinfoRequest(provider as OAuth1Config, tokens)) as unknown as VerifyCredentials)
				}
			},
			options
		);
	}
	return withOptions<P, OAuth2Config<P> & { version: '2.0' }>(
		{
			...common,
			flow: oauthFlow,
			version: '2.0',
			authorization: { url: 'https://x.com/i/oauth2/authorize', params: { scope: 'users.read tweet.read offline.access' } },
			token: 'https://api.x.com/2/oauth2/token',
			userinfo: {
				url: 'https://api.x.com/2/users/me',
				params: { 'user.fields': 'profile_image_url' },
				async request({ tokens, provider }) {
					const url = endpointRequestUrl(provider.userinfo);
					const response = await (provider[customFetch] ?? fetch)(url, { headers: { authorization: `Bearer ${tokens.access_token}` } });
					if (!response.ok) throw new Error(`${url.origin}${url.pathname} answered ${response.status}.`);
					const profile = (await response.json()) as SocialProfile;
					if (typeof profile?.data?.id !== 'string') throw new TypeError(`${url.pathname} answered no data.id.`);
					return profile;
				}
			},
			checks: ['pkce', 'state'],
			client: { token_endpoint_auth_method: 'client_secret_basic' }
		},
		options
	);
}
