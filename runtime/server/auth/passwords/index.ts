// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Password accounts: `credentials` accounts whose `password_hash` is scrypt's, and their pages.
 *
 * - `hashing.ts` — scrypt (N=2^17, r=8, p=1) in a bounded queue: `hashPassword`,
 *   `verifyPassword` (constant time), `configurePasswordHashing`.
 * - `accounts.ts` — `registerWithPassword` (sign-up), `authorizeWithPassword` (the credentials
 *   provider's `authorize` in generated apps), `checkNewPassword`, `passwordAccount`.
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
	checkNewPassword,
	PASSWORD_PROVIDER,
	passwordAccount,
	registerWithPassword,
	type AuthorizeAdapter,
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
export { configurePasswordHashing, hashPassword, verifyPassword, type PasswordHashingLimits } from './hashing.js';
export { signUpAction, type VerificationSent } from './signup.js';
