// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomUUID } from 'node:crypto';
import { json, type Cookies, type RequestEvent } from '@sveltejs/kit';
import {
	generateAuthenticationOptions,
	generateRegistrationOptions,
	verifyAuthenticationResponse,
	verifyRegistrationResponse,
	type AuthenticationResponseJSON,
	type AuthenticatorTransport,
	type RegistrationResponseJSON
} from '@simplewebauthn/server';
import type { AdapterAuthenticator, AdapterUser } from '../adapters/types.js';
import type { Account, ResolvedConfig } from '../config.js';
import type { WebAuthnConfig } from '../providers/types.js';
import { authCookie } from '../session/cookies.js';
import { isEmail, normalizeEmail } from '../email/address.js';
import { CallbackRouteError, WebAuthnVerificationError } from '../errors.js';
import { clientAddress, formText } from '../http/form.js';
import { seal, unseal } from '../session/jwt.js';
import { countAttempt } from '../limits/rate-limit.js';
import { appOriginOf } from '../http/redirects.js';
import { adapterMethod, need } from '../adapters/methods.js';
import { currentSession, readSession, STORE_UNAVAILABLE, toUser } from '../session/session.js';
import { signedInRecently } from '../account/recent-sign-in.js';
import { sendNotice } from '../email/notices.js';
import { completeSignIn, errorType } from '../signin/finish.js';
import { issueChallenge, useChallenge } from './challenges.js';
import { authenticatorModel } from './models.js';

/** The two WebAuthn ceremonies: making a passkey (`register`), signing in with one (`authenticate`). */
type WebAuthnAction = 'register' | 'authenticate';

/**
 * What a started ceremony must remember until its response is posted: the challenge, and for a
 * registration whom the passkey is for: the signed-in user (`userId`), or a new one (`email`,
 * and `newUserId`, the id the user will get, already the passkey's user handle).
 */
interface Ceremony extends Record<string, unknown> {
	provider: string;
	action: WebAuthnAction;
	challenge: string;
	userId?: string;
	email?: string;
	newUserId?: string;
}

/** Seconds a started ceremony stays valid. */
const CEREMONY_MAX_AGE = 5 * 60;
const SALT = 'auth.webauthn-challenge';

/** Cookie name and attributes: the whole site, since sign-in, sign-up and account pages all post the response. */
const ceremonyCookie = (url: URL, config: ResolvedConfig) => authCookie(url, config.useSecureCookies, 'webauthn-challenge');

/**
 * The ceremony cookie's `Set-Cookie` value: the ceremony sealed (A256GCM, key derived from the
 * secret for this use only), httpOnly, 5 minutes. The options response carries it itself:
 * SvelteKit adds `cookies.set()` only to responses made by `resolve`.
 */
async function ceremonyCookieHeader(cookies: Cookies, url: URL, config: ResolvedConfig, ceremony: Ceremony): Promise<string> {
	const value = await seal(ceremony, config.secrets[0]!, SALT, CEREMONY_MAX_AGE, Math.floor(Date.now() / 1000));
	const { name, options } = ceremonyCookie(url, config);
	return cookies.serialize(name, value, { ...options, maxAge: CEREMONY_MAX_AGE });
}

/**
 * The options JSON with the ceremony cookie, never cached, once the challenge is stored
 * server-side (`challenges.ts`); a 429 `RateLimited` refusal when the client holds too many
 * unanswered challenges already.
 */
async function optionsResponse(event: RequestEvent, config: ResolvedConfig, options: object, ceremony: Ceremony): Promise<Response> {
	if (!(await issueChallenge(config, ceremony.provider, ceremony.challenge, CEREMONY_MAX_AGE, clientAddress(event)))) {
		const body: OptionsRefusal = { error: 'RateLimited', message: 'Too many passkey attempts from your network. Try again in a few minutes.' };
		return json(body, { status: 429, headers: { ...NO_STORE, 'retry-after': String(CEREMONY_MAX_AGE) } });
	}
	const cookie = await ceremonyCookieHeader(event.cookies, event.url, config, ceremony);
	return json(options, { headers: { ...NO_STORE, 'set-cookie': cookie } });
}

/**
 * Reads and deletes the ceremony cookie, and uses its challenge server-side (`challenges.ts`):
 * a challenge answers once, even when the cookie is posted again (W3C WebAuthn Level 3 §13.4.3).
 * @throws {WebAuthnVerificationError} absent, expired, tampered, for another provider or action,
 *   or its challenge was used already (a replay).
 * @throws {AdapterError} the adapter failed.
 */
async function takeCeremony(cookies: Cookies, url: URL, config: ResolvedConfig, provider: string, action: WebAuthnAction): Promise<Ceremony> {
	const { name, options } = ceremonyCookie(url, config);
	const value = cookies.get(name);
	if (value) cookies.delete(name, options);
	const ceremony = value ? await unseal<Ceremony>(value, config.secrets, SALT) : null;
	if (!ceremony || typeof ceremony.challenge !== 'string') {
		throw new WebAuthnVerificationError('The passkey response came without a valid challenge cookie (expired, or started elsewhere).', { provider });
	}
	if (ceremony.provider !== provider || ceremony.action !== action) {
		throw new WebAuthnVerificationError(`The passkey response is a ${action} for ${provider}, but the ceremony started was a ${ceremony.action} for ${ceremony.provider}.`, { provider });
	}
	if (!(await useChallenge(config, provider, ceremony.challenge))) {
		throw new WebAuthnVerificationError('The passkey challenge was used already or expired: the response was replayed, or posted twice.', { provider });
	}
	return ceremony;
}

/**
 * The relying party of `provider`'s passkeys: its configured values, else the app origin
 * (`AUTH_URL`, or the request's when the host is trusted) and that origin's hostname.
 * @throws {UntrustedHost} no origin is configured and the host is not trusted.
 */
export function relyingParty(url: URL, config: ResolvedConfig, provider: WebAuthnConfig): { id: string; name: string; origin: string } {
	const origin = provider.relyingParty.origin ?? appOriginOf(url, config);
	const id = provider.relyingParty.id ?? new URL(origin).hostname;
	return { id, name: provider.relyingParty.name ?? id, origin };
}

/** The spec keeps credential ids and public keys base64 (RFC 4648 §4); WebAuthn JSON has credential ids base64url (§5). */
export const toBase64 = (base64url: string) => Buffer.from(base64url, 'base64url').toString('base64');
export const toBase64Url = (base64: string) => Buffer.from(base64, 'base64').toString('base64url');

/** What an options request is refused with: the page shows `message`. */
type OptionsRefusal = { error: 'InvalidEmail' | 'EmailInUse' | 'SignedOut' | 'ReauthenticationRequired' | 'RateLimited'; message: string };

/** Options are one-time values: never cached. */
const NO_STORE = { 'cache-control': 'no-store' };

const refusal = (status: number, body: OptionsRefusal) => json(body, { status, headers: NO_STORE });

/**
 * Answers `GET <basePath>/webauthn-options/<provider id>?action=authenticate|register[&email=]`
 * with the options JSON for `@simplewebauthn/browser` (WebAuthn Level 3 §5.4 / §5.5, JSON
 * form), with the ceremony cookie (sealed, httpOnly, 5 minutes) holding the challenge in its
 * own `Set-Cookie`. For a new account, the passkey's user handle is the id the user will get.
 * - `authenticate` (the default): no `allowCredentials`, so the browser offers the device's
 *   passkeys for this relying party; user verification required.
 * - `register`: a passkey for the signed-in user (their existing passkeys excluded), or else for
 *   a new account with `email` (resident key and user verification required). 400
 *   `{ error: 'InvalidEmail', message }` for a malformed address, 409 `{ error: 'EmailInUse',
 *   message }` when it has an account already (signing in, then adding a passkey, is the way),
 *   401 `{ error: 'SignedOut', message }` when the signed-in user is gone from the adapter, 401
 *   `{ error: 'ReauthenticationRequired', message }` when their sign-in is older than
 *   `session.freshAge` (a new way into the account; OWASP ASVS 5.0 7.5.1).
 * - either: 429 `{ error: 'RateLimited', message }` (`Retry-After: 300`) while the client address
 *   holds too many unanswered challenges (`challenges.ts`); the challenge is stored server-side
 *   before it is answered.
 * @throws {AdapterError} the adapter failed; {@link UntrustedHost} no origin to take the relying
 *   party from; {@link MissingAdapter} (see {@link webauthnOptionsRoute}, which answers them).
 */
async function webauthnOptions(event: RequestEvent, config: ResolvedConfig, provider: WebAuthnConfig): Promise<Response> {
	const action: WebAuthnAction = event.url.searchParams.get('action') === 'register' ? 'register' : 'authenticate';
	const rp = relyingParty(event.url, config, provider);
	if (action === 'authenticate') {
		const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: provider.timeout });
		return optionsResponse(event, config, options, { provider: provider.id, action, challenge: options.challenge });
	}
	const signedIn = (await readSession(event, config))?.user?.id;
	let user: { id: string; name: string; displayName: string; exclude: AdapterAuthenticator[] };
	let whom: Pick<Ceremony, 'userId' | 'email' | 'newUserId'>;
	if (signedIn) {
		const found = await need(config, 'getUser')(signedIn);
		if (!found) return refusal(401, { error: 'SignedOut', message: 'Sign in again to add a passkey.' });
		// A new way in for this account (OWASP ASVS 5.0 7.5.1): not on a sign-in older than freshAge.
		if (!signedInRecently(await currentSession(event, config), config)) {
			return refusal(401, { error: 'ReauthenticationRequired', message: 'For your security, sign in again to add a passkey.' });
		}
		const exclude = await need(config, 'listAuthenticatorsByUserId')(found.id);
		const name = found.email ?? found.id;
		user = { id: found.id, name, displayName: found.name ?? name, exclude };
		whom = { userId: found.id };
	} else {
		const email = normalizeEmail(event.url.searchParams.get('email') ?? '');
		if (!isEmail(email)) return refusal(400, { error: 'InvalidEmail', message: 'Enter a valid email address.' });
		if (await need(config, 'getUserByEmail')(email)) {
			return refusal(409, { error: 'EmailInUse', message: 'An account with this email exists. Sign in, then add a passkey to it.' });
		}
		const newUserId = randomUUID();
		user = { id: newUserId, name: email, displayName: email, exclude: [] };
		whom = { email, newUserId };
	}
	const options = await generateRegistrationOptions({
		rpName: rp.name,
		rpID: rp.id,
		userName: user.name,
		userDisplayName: user.displayName,
		userID: new TextEncoder().encode(user.id),
		timeout: provider.timeout,
		attestationType: 'none',
		excludeCredentials: user.exclude.map((authenticator) => ({ id: toBase64Url(authenticator.credentialID), transports: splitTransports(authenticator.transports) })),
		authenticatorSelection: { residentKey: 'required', userVerification: 'required' }
	});
	return optionsResponse(event, config, options, { provider: provider.id, action, challenge: options.challenge, ...whom });
}

/**
 * Transports as the adapter keeps them (comma-separated, spec "AdapterAuthenticator") → the list
 * WebAuthn takes: the browser's own names (usb, nfc, ble, internal, hybrid…), unknown ones left
 * for the browser to ignore.
 */
const splitTransports = (transports: string | null | undefined) => (transports ? (transports.split(',') as AuthenticatorTransport[]) : undefined);

/** The posted ceremony response: the `response` field, JSON as `@simplewebauthn/browser` returns it. */
function postedResponse<T extends { id: string }>(form: FormData, provider: string): T {
	try {
		const value = JSON.parse(formText(form.get('response')) ?? '') as T;
		if (value && typeof value === 'object' && typeof value.id === 'string' && value.id) return value;
	} catch {
		// Reported below, as any other malformed response.
	}
	throw new WebAuthnVerificationError('The passkey response is not a WebAuthn credential in JSON.', { provider });
}

/**
 * Runs `verify` (a `@simplewebauthn/server` check), turning its throw or a `verified: false`
 * into {@link WebAuthnVerificationError}.
 */
async function verified<T extends { verified: boolean }>(provider: string, what: string, verify: () => Promise<T>): Promise<T & { verified: true }> {
	let result: T;
	try {
		result = await verify();
	} catch (err) {
		throw new WebAuthnVerificationError(`The passkey ${what} did not verify: ${(err as Error)?.message ?? err}`, { provider, err: err as Error });
	}
	if (!result.verified) throw new WebAuthnVerificationError(`The passkey ${what} did not verify.`, { provider });
	return result as T & { verified: true };
}

/**
 * A passkey sign-in POST (the `signIn` action with `providerId` of a webauthn provider): the
 * form's `action` (`authenticate` or `register`) and `response` (the browser's credential, JSON)
 * are checked against the ceremony cookie (see {@link webauthnOptions}), whose challenge must
 * be unused server-side (used here, once: W3C WebAuthn Level 3 §13.4.3), with
 * `@simplewebauthn/server`: challenge, origin, relying party id, user presence and verification,
 * signature, and on `authenticate` a counter that must go up (a cloned authenticator).
 * - `authenticate`: the passkey is looked up (`getAuthenticator`), its counter stored
 *   (`updateAuthenticatorCounter`), its user signed in.
 * - `register` for a new account: the sign-up limit per client address is counted; the user, a
 *   `webauthn` account and the authenticator are stored, then the user is signed in. The user
 *   is deleted again if storing the rest fails.
 * - `register` by a signed-in user: the passkey is added to their account (they stay signed in),
 *   when they signed in within `session.freshAge`, and a notice mailed to their address.
 * Returns where to go, when the `signIn` callback chose it.
 * @throws {WebAuthnVerificationError} anything in the ceremony that does not verify.
 * @throws {RateLimited} over the sign-up limit (a registration for a new account).
 * @throws {AccessDenied} refused by the `signIn` / `jwt` callback; {@link AdapterError} the adapter failed.
 */
export async function passkeySignIn(event: RequestEvent, config: ResolvedConfig, provider: WebAuthnConfig, form: FormData): Promise<string | undefined> {
	const action = formText(form.get('action')) === 'register' ? 'register' : 'authenticate';
	const ceremony = await takeCeremony(event.cookies, event.url, config, provider.id, action);
	const rp = relyingParty(event.url, config, provider);
	const expected = { expectedChallenge: ceremony.challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true };
	if (action === 'authenticate') {
		const response = postedResponse<AuthenticationResponseJSON>(form, provider.id);
		const credentialID = toBase64(response.id);
		const authenticator = await need(config, 'getAuthenticator')(credentialID);
		if (!authenticator) throw new WebAuthnVerificationError(`No passkey with credential id ${credentialID} is stored.`, { provider: provider.id });
		const { authenticationInfo } = await verified(provider.id, 'assertion', () =>
			verifyAuthenticationResponse({
				...expected,
				response,
				credential: { id: response.id, publicKey: Buffer.from(authenticator.credentialPublicKey, 'base64'), counter: authenticator.counter, transports: splitTransports(authenticator.transports) }
			})
		);
		await need(config, 'updateAuthenticatorCounter')(credentialID, authenticationInfo.newCounter);
		await adapterMethod(config.adapter, 'updateAuthenticator')?.({ credentialID, lastUsedAt: new Date() });
		const user = await need(config, 'getUser')(authenticator.userId);
		if (!user) throw new WebAuthnVerificationError(`The passkey ${credentialID} belongs to user ${authenticator.userId}, who is gone.`, { provider: provider.id });
		return completeSignIn(event, config, toUser(user), passkeyAccount(provider, credentialID, user.id));
	}
	const response = postedResponse<RegistrationResponseJSON>(form, provider.id);
	const { registrationInfo } = await verified(provider.id, 'registration', () => verifyRegistrationResponse({ ...expected, response }));
	const { credential, credentialDeviceType, credentialBackedUp, aaguid } = registrationInfo;
	const credentialID = toBase64(credential.id);
	// The account page's details, where the adapter keeps them (create-auth's: it can update them).
	const details = config.adapter?.updateAuthenticator ? { aaguid, createdAt: new Date() } : {};
	const stored = (userId: string): AdapterAuthenticator => ({
		credentialID,
		credentialPublicKey: Buffer.from(credential.publicKey).toString('base64'),
		counter: credential.counter,
		credentialDeviceType,
		credentialBackedUp,
		transports: credential.transports?.join(',') ?? null,
		providerAccountId: credentialID,
		userId,
		...details
	});
	if (ceremony.userId) {
		const current = (await readSession(event, config))?.user;
		if (current?.id !== ceremony.userId) {
			throw new WebAuthnVerificationError(`A passkey registration started by user ${ceremony.userId} was posted by ${current?.id ? `user ${current.id}` : 'a signed-out visitor'}.`, { provider: provider.id });
		}
		if (!signedInRecently(await currentSession(event, config), config)) {
			throw new WebAuthnVerificationError(`User ${ceremony.userId} posted a passkey registration more than session.freshAge after signing in.`, { provider: provider.id });
		}
		await addAuthenticator(config, provider, stored(ceremony.userId));
		sendNotice(event, config, current.email, 'passkey-added', await authenticatorModel(aaguid));
		return undefined;
	}
	const user = await newUser(event, config, provider, ceremony.email ?? '', ceremony.newUserId ?? randomUUID());
	try {
		await addAuthenticator(config, provider, stored(user.id));
	} catch (err) {
		await config.adapter?.deleteUser?.(user.id);
		throw err;
	}
	return completeSignIn(event, config, toUser(user), passkeyAccount(provider, credentialID, user.id));
}

/** The account a passkey signs in with: `webauthn`, keyed by the credential id (base64). */
const passkeyAccount = (provider: WebAuthnConfig, credentialID: string, userId: string): Account => ({
	type: 'webauthn',
	provider: provider.id,
	providerAccountId: credentialID,
	userId
});

/** Stores a verified passkey: its `webauthn` account, then the authenticator. */
async function addAuthenticator(config: ResolvedConfig, provider: WebAuthnConfig, authenticator: AdapterAuthenticator): Promise<void> {
	const { userId, credentialID } = authenticator;
	await need(config, 'linkAccount')({ userId, type: 'webauthn', provider: provider.id, providerAccountId: credentialID });
	await need(config, 'createAuthenticator')(authenticator);
}

/**
 * The user `id` a passkey sign-up makes for `email`, after the sign-up limit per client address.
 * @throws {WebAuthnVerificationError} the address got an account meanwhile.
 */
async function newUser(event: RequestEvent, config: ResolvedConfig, provider: WebAuthnConfig, email: string, id: string): Promise<AdapterUser> {
	const limits = config.rateLimits;
	if (limits) await countAttempt(limits, [[limits.signUpPerClient, clientAddress(event)]]);
	const taken = () => new WebAuthnVerificationError(`${email} got an account while its passkey was being made.`, { provider: provider.id });
	if (await need(config, 'getUserByEmail')(email)) throw taken();
	try {
		return await need(config, 'createUser')({ id, email, emailVerified: null, name: null, image: null });
	} catch (err) {
		// Lost a race with a concurrent sign-up for the same address (unique constraint).
		if (await need(config, 'getUserByEmail')(email)) throw taken();
		throw err;
	}
}

/**
 * {@link webauthnOptions}, with its failures logged in full and answered as JSON the page can
 * show: 503 `{ error: 'AdapterError', message }` while the store is down, else 500 `{ error:
 * <ErrorType>, message }` (an untrusted host, a missing adapter method).
 */
export async function webauthnOptionsRoute(event: RequestEvent, config: ResolvedConfig, provider: WebAuthnConfig): Promise<Response> {
	try {
		return await webauthnOptions(event, config, provider);
	} catch (err) {
		const type = errorType(err, 'CallbackRouteError');
		config.logger.error(type === 'CallbackRouteError' ? new CallbackRouteError('Passkey options failed.', { provider: provider.id, err: err as Error }) : (err as Error));
		const unavailable = type === 'AdapterError';
		const message = unavailable ? STORE_UNAVAILABLE : 'Passkeys are not set up right on this server.';
		return json({ error: type, message }, { status: unavailable ? 503 : 500, headers: NO_STORE });
	}
}
