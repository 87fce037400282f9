// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Password accounts, by the path the generated `src/auth.ts` imports them from (it passes
 * `authorizeWithPassword` to its credentials provider). The code is in `passwords/`; this
 * module only names what an app may use of it.
 * @see create-auth docs/api.md#passwords
 */
export {
	authorizeWithPassword,
	registerWithPassword,
	type AuthorizeAdapter,
	type AuthorizeOptions,
	type RegisterAdapter,
	type RegisterErrorCode,
	type RegisterResult
} from './passwords/accounts.js';
export type { PreviousAuthorize } from './passwords/previous.js';
export { configurePasswordHashing, type PasswordHashingLimits } from './passwords/hashing.js';
