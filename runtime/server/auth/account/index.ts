// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The account page's security center: what the signed-in user sees and changes of how they are
 * signed in. Each function finds the config through the request (like the guards).
 *
 * - `sessions.ts` — `listSessions` (where the user is signed in), `revokeSession` (end one other
 *   `database` session), `revokeOtherSessions` (end every other session, on both strategies).
 * - `deletion.ts` — `accountDeletion`, `deleteAccount`: the user and what the adapter keeps of
 *   them, after a recent sign-in and a typed confirmation.
 * - `email-change.ts` — `requestEmailChange` (a link to the new address), `confirmEmailChange`
 *   (the link's page: the address changes, the old one is told).
 * - `methods.ts` — `listSignInMethods` (a password, passkeys, linked accounts, email links: each
 *   provider's `flow.account`), `removeSignInMethod` (never the last one), `renameSignInMethod`.
 * - `recent-sign-in.ts` — re-authentication (OWASP ASVS 5.0 7.5.1): `signedInRecently` (within
 *   `session.freshAge`), `reauthenticationRequired` (the refusal, with the sign-in URL that resumes).
 * - `devices.ts` — `deviceOf`: a `User-Agent` as "Firefox on Windows" (bowser, loaded on first use).
 *
 * Runtime modules import the module they need, never this index.
 * @see create-auth docs/api.md#ending-sessions
 */
export { accountDeletion, deleteAccount, type AccountDeletion } from './deletion.js';
export { deviceOf, type Device } from './devices.js';
export { confirmEmailChange, EMAIL_CHANGE_MAX_AGE, pendingEmailChange, requestEmailChange, type EmailChangeRequested, type PendingEmailChange } from './email-change.js';
export { listSignInMethods, removeSignInMethod, renameSignInMethod, type SignInMethodRemoved, type SignInMethodRenamed, type SignInMethods } from './methods.js';
export { reauthenticateUrl, reauthenticationRequired, signedInRecently, type AccountFailure } from './recent-sign-in.js';
export { listSessions, revokeOtherSessions, revokeSession, type AccountSession, type AccountSessions, type SessionsEnded } from './sessions.js';
