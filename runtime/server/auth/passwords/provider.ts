// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Account } from '../config.js';

/** The provider id of password accounts (their `provider`, and the sign-up's account). */
export const PASSWORD_PROVIDER = 'credentials';

/** The session's account of a password sign-in, as the credentials provider gives it. */
export const passwordAccount = (userId: string): Account => ({ type: 'credentials', provider: PASSWORD_PROVIDER, providerAccountId: userId, userId });
