// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Password accounts: `credentials` accounts whose `password_hash` is scrypt's, and their pages.
 *
 * - `queue.ts` — the bounded queue every hash and verification runs in:
 *   `configurePasswordHashing`.
 * - `cost.ts` — scrypt's cost for new hashes, `COST` (N=2^17, r=8, p=1), and `DUMMY_HASH`, at
 *   that cost, which a sign-in for an unknown address is verified against.
 * - `hashing.ts` — scrypt at that cost: `hashPassword`, `verifyPassword` (constant time;
 *   Better Auth's and Lucia's hashes too, by their shape).
 * - `foreign.ts` — those hashes of other libraries: `verifyForeignHash` (Better Auth's scrypt,
 *   argon2 through `@node-rs/argon2`, loaded only when met), `isForeignPasswordHash`.
 * - `accounts.ts` — `registerWithPassword` (sign-up), `authorizeWithPassword` (the credentials
 *   provider's `authorize` in generated apps; it replaces a foreign hash with ours),
 *   `replacePasswordHash`; `provider.ts` — `PASSWORD_PROVIDER`, `passwordAccount`.
 * - `previous.ts` — `adoptPreviousUser`: an app's `authorize` from before create-auth (Auth.js's
 *   Credentials, carried by `create-auth switch`) asked for an address create-auth has no
 *   password account for, and the user it signs in kept with our hash (`PreviousAuthorize`).
 * - `policy.ts` — `checkNewPassword`: what a new password must be (NIST SP 800-63B-4
 *   §3.1.1.2); `blocklist.ts` — `isCommonPassword` (the common and breached passwords, read on
 *   first use); `breach.ts` — `isBreachedPassword` (Have I Been Pwned's range query).
 * - `signup.ts` — the `signUp` action; `change.ts` — `requestPasswordReset`,
 *   `resetPassword` and `changePassword`. The credentials flow (`signin/credentials.ts`)
 *   offers them; confirming an address is `email/verification.ts`.
 *
 * The generated `src/auth.ts` imports `authorizeWithPassword` from `../passwords.ts`, which
 * names what an app may use.
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#passwords
 */
export {
	authorizeWithPassword,
	PASSWORD_PROVIDER,
	passwordAccount,
	registerWithPassword,
	replacePasswordHash,
	type AuthorizeAdapter,
	type AuthorizeOptions,
	type HashReplacingAdapter,
	type RegisterAdapter,
	type RegisterErrorCode,
	type RegisterResult
} from './accounts.js';
export {
	changePasswordAction,
	requestPasswordResetAction,
	resetPasswordAction,
	type PasswordChanged,
	type PasswordFormFailure,
	type PasswordResetRequested
} from './change.js';
export { isBreachedPassword } from './breach.js';
export { adoptPreviousUser, type AdoptingAdapter, type PreviousAuthorize } from './previous.js';
export { blocklistKey, isCommonPassword } from './blocklist.js';
export { configurePasswordHashing, hashPassword, verifyPassword, type PasswordHashingLimits } from './hashing.js';
export { isForeignPasswordHash, verifyForeignHash } from './foreign.js';
export { appNameWords, checkNewPassword, type PasswordCheck, type PasswordErrorCode, type PasswordPolicyConfig } from './policy.js';
export { signUpAction, type VerificationSent } from './signup.js';
