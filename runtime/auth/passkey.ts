// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Passkeys in the browser: each function asks the server for the ceremony's options
 * (`GET <basePath>/webauthn-options/<providerId>`), lets the browser make or use a passkey
 * (`@simplewebauthn/browser`), then POSTs the result to the sign-in page's default action, a
 * real navigation like the client `signIn`. The server verifies everything; nothing here is
 * trusted.
 */
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { signIn } from './client.js';

/** Where a passkey ceremony posts and goes. */
export interface PasskeyOptions {
	/** Where to go once signed in (validated on the server). Default `/`. */
	redirectTo?: string;
	/**
	 * The page whose default form action is the runtime's `signIn`, as the browser requests it:
	 * with SvelteKit's `paths.base`, so `resolve('/signin')` from `$app/paths`. Default `/signin`.
	 */
	signInPage?: string;
	/** Default `passkey`. */
	providerId?: string;
	/**
	 * Where the runtime answers (its `basePath`), as the browser requests it. Default: `auth` in
	 * the sign-in page's folder: `/auth` for `/signin`, `/base/auth` for `/base/signin`, which
	 * follows SvelteKit's `paths.base` when `signInPage` does.
	 */
	basePath?: string;
}

/**
 * Why a ceremony ended before anything was posted. `message` is safe to show; `code` is the
 * server's refusal (`InvalidEmail`, `EmailInUse`, `SignedOut`, `ReauthenticationRequired`, `AdapterError`), or `Cancelled`
 * (the prompt was dismissed or timed out), `Registered` (this device already holds a passkey
 * for the account), `Unsupported` (no WebAuthn here) or `Failed`.
 */
export class PasskeyError extends Error {
	readonly code: string;

	constructor(code: string, message: string) {
		super(message);
		this.name = 'PasskeyError';
		this.code = code;
	}
}

/** Whether this browser can use passkeys at all. */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/**
 * Signs in with a passkey of this device. With `autofill`, the browser offers the passkeys in
 * the autofill of an input with `autocomplete="username webauthn"` instead of a prompt
 * (conditional mediation); the promise then settles only when one is picked, and resolves
 * without posting where the browser cannot do that. Navigates away on success.
 * @throws {PasskeyError} the prompt was dismissed, the server refused, or no WebAuthn.
 */
export async function signInWithPasskey(options: PasskeyOptions & { autofill?: boolean } = {}): Promise<void> {
	const { autofill = false, ...rest } = options;
	if (autofill && !(await browserSupportsWebAuthnAutofill())) return;
	const optionsJSON = await ceremonyOptions(rest, { action: 'authenticate' });
	const response = await answer(() => startAuthentication({ optionsJSON, useBrowserAutofill: autofill }));
	post(rest, 'authenticate', response);
}

/**
 * Creates an account for `email` with a new passkey made on this device, and signs it in.
 * Navigates away on success.
 * @throws {PasskeyError} `InvalidEmail`, `EmailInUse` (sign in, then add a passkey), the prompt was dismissed, or no WebAuthn.
 */
export async function signUpWithPasskey(email: string, options: PasskeyOptions = {}): Promise<void> {
	const optionsJSON = await ceremonyOptions(options, { action: 'register', email });
	post(options, 'register', await answer(() => startRegistration({ optionsJSON })));
}

/**
 * Adds a passkey made on this device to the signed-in user's account, then goes to
 * `redirectTo` (the user stays signed in).
 * @throws {PasskeyError} `SignedOut`, `Registered`, the prompt was dismissed, or no WebAuthn.
 */
export async function addPasskey(options: PasskeyOptions = {}): Promise<void> {
	const optionsJSON = await ceremonyOptions(options, { action: 'register' });
	post(options, 'register', await answer(() => startRegistration({ optionsJSON })));
}

async function ceremonyOptions({ providerId = 'passkey', signInPage = '/signin', basePath }: PasskeyOptions, query: Record<string, string>) {
	if (!passkeysSupported()) throw new PasskeyError('Unsupported', 'This browser cannot use passkeys.');
	const routes = basePath ?? new URL('auth', new URL(signInPage, location.href)).pathname;
	const response = await fetch(`${routes}/webauthn-options/${encodeURIComponent(providerId)}?${new URLSearchParams(query)}`, {
		headers: { accept: 'application/json' }
	});
	const body = await response.json().catch(() => ({}));
	if (!response.ok) throw new PasskeyError(body.error ?? 'Failed', body.message ?? 'Passkeys are unavailable for a moment. Please try again.');
	return body;
}

/** Runs the browser's ceremony, turning its refusals into a {@link PasskeyError} a page can show. */
async function answer<T>(ceremony: () => Promise<T>): Promise<T> {
	try {
		return await ceremony();
	} catch (err) {
		const code = err instanceof WebAuthnError ? err.code : undefined;
		if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') throw new PasskeyError('Registered', 'This device already has a passkey for your account.');
		if ((err as Error)?.name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED') throw new PasskeyError('Cancelled', 'No passkey was used. Try again when you are ready.');
		throw new PasskeyError('Failed', 'The passkey could not be used. Try again, or choose another way.');
	}
}

function post({ redirectTo, signInPage, providerId = 'passkey' }: PasskeyOptions, action: 'authenticate' | 'register', response: unknown): void {
	const fields: Record<string, string> = { action, response: JSON.stringify(response) };
	if (redirectTo) fields.redirectTo = redirectTo;
	if (signInPage) fields.signInPage = signInPage;
	signIn(providerId, fields);
}

/** What the WebAuthn Signal API calls need of the user's passkeys for one relying party (the account page's `signal` of a passkey). */
export interface PasskeySignals {
	/** The relying party id the passkeys were made for. */
	rpId: string;
	/** The user handle they were made with, base64url. */
	userId: string;
}

/** The Signal API methods (WebAuthn Level 3 §5.1.10), where the browser has them. */
type SignalingCredential = {
	signalUnknownCredential?(options: { rpId: string; credentialId: string }): Promise<void>;
	signalAllAcceptedCredentials?(options: { rpId: string; userId: string; allAcceptedCredentialIds: string[] }): Promise<void>;
	signalCurrentUserDetails?(options: { rpId: string; userId: string; name: string; displayName: string }): Promise<void>;
};

/** `PublicKeyCredential` with its Signal API methods, or undefined outside a browser that has it. */
function signaling(): SignalingCredential | undefined {
	return typeof PublicKeyCredential === 'undefined' ? undefined : (PublicKeyCredential as unknown as SignalingCredential);
}

/**
 * Tells the user's password manager which of their passkeys the server still accepts, and the
 * account's current name (WebAuthn Signal API: `signalAllAcceptedCredentials`,
 * `signalCurrentUserDetails`), so it stops offering a removed one and shows the right account.
 * `credentialIds` are base64url. Does nothing where the browser lacks the API; never throws (a
 * signal is a hint: a failure is only logged to the console).
 */
export async function signalAcceptedPasskeys(signals: PasskeySignals, credentialIds: string[], user: { name: string; displayName: string }): Promise<void> {
	const api = signaling();
	try {
		await api?.signalAllAcceptedCredentials?.({ rpId: signals.rpId, userId: signals.userId, allAcceptedCredentialIds: credentialIds });
		await api?.signalCurrentUserDetails?.({ rpId: signals.rpId, userId: signals.userId, ...user });
	} catch (err) {
		console.warn('The passkey signals were not taken:', err);
	}
}

/**
 * Tells the user's password manager that the passkey `credentialId` (base64url) is gone from the
 * server (WebAuthn Signal API: `signalUnknownCredential`), so it stops offering it. Does nothing
 * where the browser lacks the API; never throws.
 */
export async function signalRemovedPasskey(rpId: string, credentialId: string): Promise<void> {
	try {
		await signaling()?.signalUnknownCredential?.({ rpId, credentialId });
	} catch (err) {
		console.warn('The passkey signal was not taken:', err);
	}
}
