// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.

/** An email address as accounts, verification tokens and rate limits key it: trimmed, lowercased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Whether a normalized address looks deliverable: one `@`, a dot in the domain, no spaces, at
 * most 254 characters (RFC 5321 section 4.5.3.1.3). Deliberately loose: the link or the
 * password is the real proof.
 */
export const isEmail = (email: string) => email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
