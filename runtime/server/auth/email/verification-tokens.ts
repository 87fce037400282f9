// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createHash, randomBytes } from 'node:crypto';
import type { VerificationToken } from '../adapters/types.js';
import type { ResolvedConfig } from '../config.js';
import { Verification } from '../errors.js';
import { safeRedirectTarget } from '../http/redirects.js';
import { need } from '../adapters/methods.js';

/**
 * What the adapter stores of an emailed link's token: SHA-256 (hex) of the token followed by
 * the secret, so a leaked verification-token table opens no link.
 * @see create-auth docs/api.md#email
 */
export function hashToken(token: string, secret: string): string {
	return createHash('sha256').update(`${token}${secret}`).digest('hex');
}

/**
 * Makes a one-time token for an emailed link: 32 CSPRNG bytes (base64url), stored through
 * `createVerificationToken` as its {@link hashToken} under the current secret, with
 * `identifier` and `expires` = now + `maxAge` seconds. Each flow names its identifiers apart
 * (an email sign-in's is the address, a password reset's `password-reset:<address>`), so a
 * link of one flow is never accepted by another.
 * @returns the token to put in the link, and when it expires
 * @throws {AdapterError} storing it failed; {@link MissingAdapter} the adapter cannot.
 */
export async function issueVerificationToken(config: ResolvedConfig, identifier: string, maxAge: number): Promise<{ token: string; expires: Date }> {
	const token = randomBytes(32).toString('base64url');
	const expires = new Date(Date.now() + maxAge * 1000);
	await need(config, 'createVerificationToken')({ identifier, token: hashToken(token, config.secrets[0]!), expires });
	return { token, expires };
}

/**
 * Uses a link's token: looks it up by its {@link hashToken} under each secret (the current one
 * first, so links sent before a rotation still work) with `useVerificationToken`, which returns
 * it and deletes it, so a link works once.
 * @returns the stored token (its `expires` is in the future)
 * @throws {Verification} no such token for `identifier` (unknown, used, tampered, another
 *   identifier's), or it expired (it is deleted all the same).
 * @throws {AdapterError} the adapter failed.
 * @see create-auth docs/api.md#adapter-methods (`useVerificationToken`)
 */
export async function useVerificationToken(config: ResolvedConfig, identifier: string, token: string): Promise<VerificationToken> {
	const use = need(config, 'useVerificationToken');
	let found: VerificationToken | null = null;
	for (const secret of config.secrets) {
		found = await use({ identifier, token: hashToken(token, secret) });
		if (found) break;
	}
	if (!found) throw new Verification(`No unused link matches this token for ${identifier}.`);
	if (found.expires.getTime() <= Date.now()) throw new Verification(`The link for ${identifier} expired at ${found.expires.toISOString()}.`);
	return found;
}

/**
 * The URL an emailed link opens: `page` (a path inside the app) under `base` (SvelteKit's
 * `paths.base`, see `appBase`) on `origin` (the trusted one, see `appOriginOf`), with `token` and
 * `email`, and `callbackUrl` when it is a same-origin path inside the base other than its home
 * (where the link's POST sends the user afterwards).
 */
export function emailedLinkUrl(
	{ origin, base }: { origin: string; base: string },
	page: string,
	{ token, email }: { token: string; email: string },
	callbackUrl?: string
): string {
	const query = new URLSearchParams({ token, email });
	const target = callbackUrl && safeRedirectTarget(callbackUrl, origin, true, base);
	if (target && target !== `${base}/`) query.set('callbackUrl', target);
	return `${origin}${base}${page}?${query}`;
}
