import { randomBytes } from 'node:crypto';
import Provider, { type Grant, type JWKS, type KoaContextWithOIDC } from 'oidc-provider';
import { INTERACTION_PATH, type TestAccount } from './interaction.js';
import { createMemoryAdapter } from './memory-adapter.js';
import { errorPage } from './pages.js';

/** A confidential web client registered at the dev IdP. */
export interface DevIdpClient {
	clientId: string;
	/** Sent with `client_secret_basic` or `client_secret_post`; both are accepted. */
	clientSecret: string;
	/** Exact `redirect_uri` values allowed in authorization requests. */
	redirectUris: string[];
}

/** {@link createProvider}'s input: `startDevIdp`'s options with the defaults applied. */
export interface ProviderSettings extends TestAccount {
	clients: readonly DevIdpClient[];
	/** Private signing keys; the first one signs. */
	keys: JWKS;
	/** Access token lifetime, in seconds. */
	accessTokenTtl: number;
	/** ID token lifetime, in seconds. */
	idTokenTtl: number;
}

/**
 * Endpoint paths, shaped like FusionAuth's (the `idp` provider's product). Discovery stays at
 * `/.well-known/openid-configuration`.
 */
export const ROUTES = {
	authorization: '/oauth2/authorize',
	token: '/oauth2/token',
	userinfo: '/oauth2/userinfo',
	jwks: '/oauth2/jwks',
	revocation: '/oauth2/revoke',
	end_session: '/oauth2/logout',
	pushed_authorization_request: '/oauth2/par'
};

/** Claims released per scope (OIDC Core §5.4); `offline_access` releases none. */
const SCOPE_CLAIMS = {
	openid: ['sub'],
	email: ['email', 'email_verified'],
	profile: ['name', 'given_name', 'family_name', 'preferred_username', 'picture']
};

const DAY = 24 * 60 * 60;

/**
 * The oidc-provider instance behind a dev IdP: authorization code flow only, RS256 ID tokens,
 * `client_secret_basic` and `client_secret_post`, PKCE S256 optional, `response_mode` query or
 * form_post, RFC 9207 `iss` on every authorization response (oidc-provider always adds it).
 *
 * - Refresh tokens are issued when the scope includes `offline_access` (see
 *   {@link offlineAccessIsConsented}) and are rotated on every use: the response carries a new
 *   refresh token and the one sent is spent. Sending a spent one again fails with
 *   `invalid_grant` and revokes the whole grant (all its tokens).
 * - `conformIdTokenClaims: false`: the ID token carries the scope's claims (email, name…) as
 *   well as userinfo.
 * - `tenantId` is an accepted authorization parameter, shown on the sign-in page; it does not
 *   reach any token.
 * - No consent screen: see {@link grantEverythingRequested}.
 *
 * Defaults that make oidc-provider print "you SHOULD/MUST change" notices are replaced (TTLs as
 * numbers, storage, CORS, error page, account lookup, revocation policy); the one left is
 * "Unsupported runtime" on Node 20, printed when the module loads.
 *
 * @param issuer `http://127.0.0.1:<port>`, no trailing slash
 * @throws when oidc-provider rejects the configuration (an invalid client or key)
 */
export function createProvider(issuer: string, settings: ProviderSettings): Provider {
	const { user } = settings;
	const provider = new Provider(issuer, {
		adapter: createMemoryAdapter(),
		clients: settings.clients.map((client) => ({
			client_id: client.clientId,
			client_secret: client.clientSecret,
			redirect_uris: client.redirectUris,
			grant_types: ['authorization_code', 'refresh_token'],
			response_types: ['code']
		})),
		clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
		jwks: settings.keys,
		enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
		responseTypes: ['code'],
		scopes: ['openid', 'email', 'profile', 'offline_access'],
		claims: SCOPE_CLAIMS,
		conformIdTokenClaims: false,
		extraParams: ['tenantId'],
		routes: ROUTES,
		// Signs the session and interaction cookies; a restart signs everyone out, as it should.
		cookies: { keys: [randomBytes(32).toString('base64url')] },
		// Clients that send only state + nonce must work too, not just PKCE ones.
		pkce: { required: () => false },
		features: {
			devInteractions: { enabled: false },
			revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId }
		},
		interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
		findAccount: (_ctx, sub) => (sub === user.sub ? { accountId: sub, claims: () => ({ ...user }) } : undefined),
		loadExistingGrant: grantEverythingRequested,
		rotateRefreshToken: true,
		ttl: {
			AccessToken: settings.accessTokenTtl,
			IdToken: settings.idTokenTtl,
			AuthorizationCode: 60,
			RefreshToken: 14 * DAY,
			Interaction: 60 * 60,
			Session: 14 * DAY,
			Grant: 14 * DAY
		},
		// Apps call the token and userinfo endpoints from their server, never from a browser.
		clientBasedCORS: () => false,
		renderError: (ctx, out) => {
			ctx.type = 'html';
			ctx.body = errorPage(out.error, out.error_description);
		}
	});
	provider.use(offlineAccessIsConsented);
	return provider;
}

/**
 * Pre-middleware of the authorization endpoint: a GET request asking for `offline_access`
 * without a `prompt` is handled as if it said `prompt=consent`.
 *
 * OIDC Core §11 grants offline access only with `prompt=consent`, and oidc-provider enforces it
 * by dropping `offline_access` from the scope otherwise. Hosted IdPs such as FusionAuth issue
 * refresh tokens for the scope alone, and a dev IdP has no consent to ask for: the consent
 * prompt this adds is resolved without a screen (see `handleInteraction`). A request that sets `prompt` itself is left to the
 * rule: with `prompt=login`, say, no refresh token is issued.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#OfflineAccess
 */
async function offlineAccessIsConsented(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
	const { scope, prompt } = ctx.query;
	if (ctx.method === 'GET' && ctx.path === ROUTES.authorization && prompt === undefined) {
		if (typeof scope === 'string' && scope.split(' ').includes('offline_access')) ctx.query = { ...ctx.query, prompt: 'consent' };
	}
	await next();
}

/**
 * `loadExistingGrant`: the client's grant in this session (or a new one), with every OpenID
 * scope the request asks for added and saved. This is what makes consent automatic:
 * oidc-provider asks for consent only about scopes missing from the grant, and none are.
 */
async function grantEverythingRequested(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
	const { client, session, provider } = ctx.oidc;
	if (!client || !session?.accountId) return undefined;
	const grantId = session.grantIdFor(client.clientId);
	const grant =
		(grantId ? await provider.Grant.find(grantId) : undefined) ??
		new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
	grant.addOIDCScope(ctx.oidc.requestParamOIDCScopes);
	await grant.save();
	return grant;
}
