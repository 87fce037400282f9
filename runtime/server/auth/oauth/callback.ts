// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import type { User } from '../../../auth/types.js';
import * as oauth from 'oauth4webapi';
import type { Account, ResolvedConfig } from '../config.js';
import { AccessDenied, AuthError, InvalidCheck, OAuthCallbackError } from '../errors.js';
import type { OAuthConfig, Profile, TokenSet } from '../providers/types.js';
import { isOpenIdConnect, providerClient, type ProviderClient } from './client.js';
import { takeFlowFor, type FlowState } from './flow.js';
import { normalizeTokens, toUserAndAccount } from './profile.js';

/** What a successful callback yields: the profile's user and account, and the flow it finished. */
export interface CallbackResult {
	user: User;
	account: Account;
	profile: Profile;
	flow: FlowState;
}

/**
 * The callback's parameters: the query (GET) or the form body (POST, `response_mode=form_post`);
 * an unreadable body gives none (the checks then fail). Reads the body: call it once per request.
 * @see OAuth 2.0 Form Post Response Mode §2
 */
export async function callbackParams(event: RequestEvent): Promise<URLSearchParams> {
	if (event.request.method !== 'POST') return new URLSearchParams(event.url.searchParams);
	const params = new URLSearchParams();
	try {
		for (const [name, value] of await event.request.formData()) if (typeof value === 'string') params.append(name, value);
	} catch {
		// not a form body
	}
	return params;
}

/** The steps of a callback, named in logs (`Token request` is OAuth 1.0a's, RFC 5849 §2.3). */
export type Step = 'Discovery' | 'Authorization response' | 'Code exchange' | 'Token request' | 'Profile' | 'Profile mapping';

/**
 * Check failures: "this response is not the one we asked for". In the authorization response
 * every oauth4webapi processing error is one (`state` or RFC 9207 `iss` mismatch); later, an ID
 * token whose `nonce` is not ours.
 */
function isCheckFailure(err: unknown, step: Step): boolean {
	if (!(err instanceof oauth.OperationProcessingError)) return false;
	if (step === 'Authorization response') return true;
	return err.code === oauth.JWT_CLAIM_COMPARISON && (err.cause as { claim?: string } | undefined)?.claim === 'nonce';
}

/** Wraps a failure of one protocol step in the error type the sign-in page shows. */
function classify(err: unknown, provider: string, step: Step): AuthError {
	if (err instanceof AuthError) return err;
	if (err instanceof oauth.AuthorizationResponseError && err.error === 'access_denied') {
		return new AccessDenied(`${provider} denied the authorization (${err.error_description ?? err.error}).`, { provider, err });
	}
	if (isCheckFailure(err, step)) return new InvalidCheck(`${step}: ${(err as Error).message}`, { provider, err: err as Error });
	return new OAuthCallbackError(`${step} failed: ${(err as Error)?.message ?? String(err)}`, { provider, err: err as Error });
}

/**
 * Runs one step of a callback; a failure becomes the error type the sign-in page shows:
 * AuthErrors pass, `access_denied` → AccessDenied, a failed check → InvalidCheck, anything else
 * → OAuthCallbackError (the original as `cause.err`).
 */
export async function step<T>(provider: string, name: Step, fn: () => Promise<T>): Promise<T> {
	try {
		return await fn();
	} catch (err) {
		throw classify(err, provider, name);
	}
}

/** The code exchange: `token.request` if the provider has one, else RFC 6749 §4.1.3 with PKCE. */
async function exchangeCode(provider: OAuthConfig, pc: ProviderClient, params: URLSearchParams, flow: FlowState) {
	const token = typeof provider.token === 'object' ? provider.token : undefined;
	if (token?.request) {
		const { tokens } = await token.request({ params, checks: { codeVerifier: flow.codeVerifier, nonce: flow.nonce }, provider, redirectUri: flow.redirectUri });
		return { tokens, claims: undefined };
	}
	const response = await oauth.authorizationCodeGrantRequest(
		pc.as,
		pc.client,
		pc.clientAuth,
		params,
		flow.redirectUri,
		flow.codeVerifier ?? oauth.nopkce,
		{ ...pc.http, additionalParameters: token?.params as Record<string, string> | undefined }
	);
	const tokens = await oauth.processAuthorizationCodeResponse(pc.as, pc.client, response, {
		expectedNonce: flow.nonce ?? oauth.expectNoNonce,
		maxAge: flow.maxAge ?? oauth.skipAuthTimeCheck,
		requireIdToken: isOpenIdConnect(provider)
	});
	// oauth4webapi has checked iss, aud, exp, iat, nonce and, after a max_age, auth_time; the signature is checked here,
	// against the provider's JWKS (OpenID Connect Core 1.0 §3.1.3.7 step 6).
	if (tokens.id_token) await oauth.validateApplicationLevelSignature(pc.as, response, pc.http);
	return { tokens: tokens as TokenSet, claims: oauth.getValidatedIdTokenClaims(tokens) };
}

/** The profile: the ID token's claims (OIDC), else the userinfo endpoint's answer. */
async function fetchProfile(provider: OAuthConfig, pc: ProviderClient, tokens: TokenSet, claims: oauth.IDToken | undefined): Promise<Profile> {
	if (isOpenIdConnect(provider) && claims && provider.idToken !== false) return claims as Profile;
	const userinfo = typeof provider.userinfo === 'object' ? provider.userinfo : undefined;
	if (userinfo?.request) return userinfo.request({ tokens, provider });
	if (!tokens.access_token) throw new TypeError('The token response has no access_token.');
	const response = await oauth.userInfoRequest(pc.as, pc.client, tokens.access_token, pc.http);
	return (await oauth.processUserInfoResponse(pc.as, pc.client, claims?.sub ?? oauth.skipSubjectCheck, response)) as Profile;
}

/**
 * Finishes the callback whose parameters are `params` (see {@link callbackParams}): takes the
 * flow cookie (one use), checks it was started for this provider, validates the authorization
 * response (`state`, RFC 9207 `iss` when the provider advertises it, `error`), exchanges the code
 * (PKCE verifier, and the `redirect_uri` the flow started with: a redirect proxy's for a
 * forwarded callback), validates the ID token (signature, `iss`, `aud`, `exp`, `nonce`), reads
 * the profile, and maps it to the user and account.
 * @throws {InvalidCheck} no flow cookie, another provider's flow, `state` / `iss` / `nonce` mismatch.
 * @throws {AccessDenied} the provider answered `error=access_denied`.
 * @throws {OAuthCallbackError} any other provider error, a failed code exchange (wrong verifier,
 *   replayed code, HTTP 500, non-JSON), an invalid ID token, a failed userinfo request.
 * @see RFC 6749 §4.1.2–4.1.4, RFC 7636 §4.5–4.6, RFC 9207, OpenID Connect Core 1.0 §3.1.3
 */
export async function finishAuthorization(
	event: RequestEvent,
	config: ResolvedConfig,
	provider: OAuthConfig,
	params: URLSearchParams
): Promise<CallbackResult> {
	const flow = await takeFlowFor(event.cookies, event.url, config, provider.id, 'oauth2');
	const pc = await step(provider.id, 'Discovery', () => providerClient(provider));
	const validated = await step(provider.id, 'Authorization response', async () =>
		oauth.validateAuthResponse(pc.as, pc.client, params, flow.state ?? oauth.expectNoState)
	);
	const { tokens, claims } = await step(provider.id, 'Code exchange', () => exchangeCode(provider, pc, validated, flow));
	const normalized = normalizeTokens(tokens, Date.now());
	const profile = await step(provider.id, 'Profile', () => fetchProfile(provider, pc, normalized, claims));
	const { user, account } = await step(provider.id, 'Profile mapping', () => toUserAndAccount(provider, profile, normalized));
	return { user, account, profile, flow };
}
