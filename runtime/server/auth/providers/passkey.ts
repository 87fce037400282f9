// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { passkeyFlow } from '../signin/passkey.js';
import type { RelyingParty, WebAuthnConfig } from './types.js';

/** Options of {@link Passkey}. */
export interface PasskeyOptions {
	/** Default `passkey`. */
	id?: string;
	/** Default `Passkey`. */
	name?: string;
	/** Default: the app origin's (see {@link RelyingParty}). */
	relyingParty?: RelyingParty;
	/** Milliseconds the browser gives the user to answer its prompt. Default 60000. */
	timeout?: number;
	/** Offer passkeys in the sign-in page's autofill where the browser can. Default true. */
	enableConditionalUI?: boolean;
}

/**
 * The `passkey` provider (the spec's WebAuthn type): sign-up with an email address and a new
 * passkey, sign-in with a passkey (button or autofill), and more passkeys added by a signed-in
 * user. Needs an adapter with the authenticator methods. The ceremonies (challenge, checks,
 * storage) are the runtime's (`signin/passkey.ts`, the flow it carries, over `webauthn/` and `@simplewebauthn/server`).
 * @see create-auth docs/api.md#passkey, #adapter-methods (authenticators)
 */
export default function Passkey(options: PasskeyOptions = {}): WebAuthnConfig {
	const { relyingParty = {}, timeout = 60_000, enableConditionalUI = true, ...names } = options;
	return {
		id: 'passkey',
		name: 'Passkey',
		...names,
		type: 'webauthn',
		relyingParty,
		timeout,
		enableConditionalUI,
		flow: passkeyFlow
	};
}
