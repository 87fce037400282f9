// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { need, requireAdapterMethods } from '../adapters/methods.js';
import type { Adapter, AdapterUser } from '../adapters/types.js';
import { appBase } from '../http/app-paths.js';
import type { ResolvedConfig } from '../config.js';
import { isEmail, normalizeEmail } from './address.js';
import { EmailNotVerified, EmailSignInError, Verification } from '../errors.js';
import { callbackUrlOf, formText, readForm } from '../http/form.js';
import { linkMail } from './mail.js';
import { passwordAccount, PASSWORD_PROVIDER } from '../passwords/accounts.js';
import { countAttempt } from '../limits/rate-limit.js';
import { appOriginOf } from '../http/redirects.js';
import { verifyPassword } from '../passwords/hashing.js';
import { afterProof, proveAddress, type ProofRemovals } from './proof.js';
import { toUser } from '../session/session.js';
import { finishSignIn } from '../signin/finish.js';
import { emailedLinkUrl, issueVerificationToken, useVerificationToken } from './verification-tokens.js';

/**
 * The verification-token identifier of a link confirming a password account's address: apart
 * from sign-in links (the bare address) and reset links (`password-reset:`), so none stands in
 * for another.
 */
const verifyIdentifier = (email: string) => `verify-email:${email}`;

/** What confirming a password account's address needs of the adapter, beyond what password sign-in needs. */
const VERIFY_EMAIL_ADAPTER_METHODS = ['createVerificationToken', 'useVerificationToken', 'getUser', 'getUserByEmail', 'getAccount', 'updateUser'] as const;

/**
 * The startup check of `passwords.requireEmailVerification` (the credentials flow's `check`).
 * @throws {MissingAdapter} the adapter lacks a method confirming an address needs (named).
 */
export function requireEmailVerificationAdapter(adapter: Adapter | undefined): void {
	requireAdapterMethods(adapter, VERIFY_EMAIL_ADAPTER_METHODS, 'passwords.requireEmailVerification');
}

/**
 * Mails `email` a one-time link confirming it is the user's: a token issued for
 * `passwords.verificationMaxAge` (default 24 hours) under `verify-email:<address>`, the link to
 * the `pages.verifyEmail` page on the trusted origin ({@link appOriginOf}) with `token`,
 * `email` and the validated `callbackUrl`. Waits for the config's `mailer`.
 * @param email normalized (trimmed, lowercased), as the user's record holds it
 * @throws {EmailSignInError} the mailer failed (the token stays unused until it expires).
 * @throws {UntrustedHost} neither `AUTH_URL` nor a trusted host.
 * @throws {AdapterError} storing the token failed.
 */
export async function sendEmailVerification(event: RequestEvent, config: ResolvedConfig, email: string, callbackUrl?: string): Promise<void> {
	const origin = appOriginOf(event.url, config);
	const { token, expires } = await issueVerificationToken(config, verifyIdentifier(email), config.passwords.verificationMaxAge);
	const url = emailedLinkUrl({ origin, base: appBase(event.url, config) }, config.pages.verifyEmail, { token, email }, callbackUrl);
	const { host } = new URL(origin);
	const mail = linkMail(email, { subject: `Confirm your email for ${host}`, intro: `Confirm your email address to sign in to ${host}:`, action: 'Confirm email', url, expires });
	try {
		await config.mailer(mail);
	} catch (err) {
		throw new EmailSignInError(`Sending the confirmation link to ${email} failed.`, { provider: PASSWORD_PROVIDER, err: err as Error });
	}
}

/**
 * The password sign-in's check, with `passwords.requireEmailVerification` on, once the password
 * is right: a user whose `emailVerified` is null is refused, and a fresh confirmation link is
 * mailed ({@link sendEmailVerification}) within the `emailLink` limit per address. Not sending
 * it (over that limit, the mailer failed) is only logged: the refusal stands, and an earlier
 * link still works.
 * @throws {EmailNotVerified} the address is not confirmed (`?error=CredentialsSignin&code=EmailNotVerified`).
 * @throws {AdapterError} reading the user failed.
 */
export async function requireVerifiedEmail(event: RequestEvent, config: ResolvedConfig, userId: string, callbackUrl: string | undefined): Promise<void> {
	if (!config.passwords.requireEmailVerification) return;
	const user = await need(config, 'getUser')(userId);
	if (!user?.email || user.emailVerified) return;
	try {
		const limits = config.rateLimits;
		if (limits) await countAttempt(limits, [[limits.emailLinkPerEmail, user.email]]);
		await sendEmailVerification(event, config, user.email, callbackUrl);
	} catch (err) {
		config.logger.error(err as Error);
	}
	throw new EmailNotVerified(`${user.email} has not confirmed its address: sign-in refused, a new link mailed.`, { provider: PASSWORD_PROVIDER });
}

/**
 * A refused confirmation: `error` is `Verification` (the link is unknown, used or expired) or
 * `CredentialsSignin` (the password is not the account's; the link still works), `message` safe
 * to show.
 */
export type VerifyEmailFailure = ActionFailure<{ error: 'Verification' | 'CredentialsSignin'; message: string; email: string }>;

/**
 * The form action of the page a confirmation link opens (`pages.verifyEmail`). Opening the link
 * changes nothing (mail scanners burn nothing); this POST of `token`, `email`, the account's
 * `password` (and `callbackUrl`) uses the token ({@link useVerificationToken}: once), checks the
 * password, proves the address ({@link proveAddress}) and signs the user in ({@link finishSignIn}:
 * a 303 to the validated `callbackUrl`, or `/`).
 *
 * The password is asked because the link alone does not say who chose it: someone who
 * registered another person's address (account pre-hijacking, USENIX Security 2022) waits for
 * its owner to confirm it. The owner does not know that password: the page sends them to reset
 * it, which proves the address and leaves them the only one with a way in.
 *
 * An unknown, used, expired or other flow's link, or an address with no user any more, is a 400
 * `Verification` with nothing changed; a wrong password a 400 `CredentialsSignin`, the link put
 * back for another try.
 * @throws {AdapterError} the adapter failed (SvelteKit's error page).
 * @throws {RateLimited} the password-hashing queue is full.
 * @see create-auth docs/api.md#adapter-records (`emailVerified`), #pre-hijacked-accounts
 */
export async function verifyEmailAction(event: RequestEvent, config: ResolvedConfig): Promise<VerifyEmailFailure> {
	const form = await readForm(event.request);
	const email = normalizeEmail(formText(form.get('email')) ?? '');
	const token = formText(form.get('token'));
	let user: AdapterUser | null;
	let removed: ProofRemovals;
	try {
		if (!token || !isEmail(email)) throw new Verification('The confirmation link has no token or no valid address.');
		const used = await useVerificationToken(config, verifyIdentifier(email), token);
		user = await need(config, 'getUserByEmail')(email);
		if (!user) throw new Verification(`No user has the address ${email} any more.`);
		const account = await need(config, 'getAccount')(email, PASSWORD_PROVIDER);
		if (!account || !(await verifyPassword(formText(form.get('password')) ?? '', String(account.password_hash ?? '')))) {
			await need(config, 'createVerificationToken')(used);
			return fail(400, {
				error: 'CredentialsSignin',
				message: 'That is not the password of this account. If you did not create it, reset the password: the account becomes yours alone.',
				email
			});
		}
		({ user, removed } = await proveAddress(event, config, user, account));
	} catch (err) {
		if (!(err instanceof Verification)) throw err;
		config.logger.error(err);
		return fail(400, { error: 'Verification', message: 'This link is invalid, used or expired. Sign in with your password to get a new one.', email });
	}
	return finishSignIn(event, config, toUser(user), passwordAccount(user.id), afterProof(event, config, removed, callbackUrlOf(event, form)));
}
