// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import type { AdapterAccount, AdapterUser } from '../adapters/types.js';
import { appBase } from '../http/app-paths.js';
import type { ResolvedConfig } from '../config.js';
import { isEmail, normalizeEmail } from '../email/address.js';
import { EmailSignInError, Verification } from '../errors.js';
import { callbackUrlOf, clientAddress, formText, readForm, refusedAttempt, refusedLinkRequest } from '../http/form.js';
import { requireUser } from '../http/guards.js';
import { linkMail } from '../email/mail.js';
import { passwordAccount, PASSWORD_PROVIDER, replaceAccount, replacePasswordHash } from './accounts.js';
import { checkNewPassword } from './policy.js';
import { hashPassword, verifyPassword } from './hashing.js';
import { countPasswordAttempt, forgetPasswordAttempts } from '../limits/rate-limit.js';
import { appOriginOf } from '../http/redirects.js';
import { need } from '../adapters/methods.js';
import { currentSession, endUserSessions, startSession, toUser } from '../session/session.js';
import { reauthenticationRequired, signedInRecently, type AccountFailure } from '../account/recent-sign-in.js';
import type { User } from '../../../auth/types.js';
import { finishSignIn } from '../signin/finish.js';
import { emailedLinkUrl, issueVerificationToken, useVerificationToken } from '../email/verification-tokens.js';
import { afterProof, nothingRemoved, proveAddress } from '../email/proof.js';
import { sendNotice } from '../email/notices.js';

/** The verification-token identifier of a password reset: apart from email sign-in links, whose identifier is the bare address. */
const resetIdentifier = (email: string) => `password-reset:${email}`;

/** What the forgot-password page shows after a request: the same whether or not the address has an account. */
export type PasswordResetRequested = { sent: true; email: string };

/** A refused form: `error` is a stable code, `message` safe to show; `email` refills the form. */
export type PasswordFormFailure = ActionFailure<{ error: string; message: string; email?: string }>;

/**
 * The form action of the forgot-password page: emails a one-time link to reset the password of
 * the posted `email`'s password account. The answer is the same, `{ sent: true, email }`,
 * whether or not the address has one, and it does not wait for the mail (a slow or failing
 * mail server would tell accounts apart; a failure is logged as {@link EmailSignInError}).
 *
 * The address is normalized and checked (400 `InvalidEmail`), the attempt counted against the
 * `emailLink` rate limits shared with sign-in links (429 with `Retry-After`, 503 when the store
 * is down). For an address with a `credentials` account, a token is issued
 * ({@link issueVerificationToken}, identifier `password-reset:<address>`, `passwords.resetMaxAge`,
 * default 1 hour) and the config's `mailer` sends the `pages.resetPassword` link, built on the
 * trusted origin ({@link appOriginOf}) with `token` and `email`.
 * @throws {UntrustedHost} neither `AUTH_URL` nor a trusted host (for every address alike).
 * @throws {AdapterError} the adapter failed; {@link MissingAdapter} it lacks `getAccount` or the token methods.
 */
export async function requestPasswordResetAction(event: RequestEvent, config: ResolvedConfig): Promise<PasswordResetRequested | PasswordFormFailure> {
	const form = await readForm(event.request);
	const typed = formText(form.get('email')) ?? '';
	const email = normalizeEmail(typed);
	if (!isEmail(email)) return fail(400, { error: 'InvalidEmail', message: 'Enter a valid email address.', email: typed });
	const refused = await refusedLinkRequest(event, config, email, typed, 'Password reset');
	if (refused) return refused;
	const origin = appOriginOf(event.url, config);
	if (await need(config, 'getAccount')(email, PASSWORD_PROVIDER)) {
		const { token, expires } = await issueVerificationToken(config, resetIdentifier(email), config.passwords.resetMaxAge);
		const url = emailedLinkUrl({ origin, base: appBase(event.url, config) }, config.pages.resetPassword, { token, email });
		const { host } = new URL(origin);
		const mail = linkMail(email, { subject: `Reset your password for ${host}`, intro: `Choose a new password for ${host}:`, action: 'Reset password', url, expires });
		config.mailer(mail).catch((err: unknown) => {
			config.logger.error(new EmailSignInError(`Sending the password-reset link to ${email} failed.`, { provider: PASSWORD_PROVIDER, err: err as Error }));
		});
	}
	return { sent: true, email };
}

/**
 * The form action of the page a password-reset link opens (`pages.resetPassword`). Opening the
 * link changes nothing (mail scanners burn nothing); this POST of `token`, `email` and the new
 * `password` does:
 * 1. the password is checked ({@link checkNewPassword}: 400 with its code, the link still unused);
 * 2. the token is used ({@link useVerificationToken}: once, for 1 hour by default); an unknown,
 *    used, expired or other address's link is a 400 `Verification`, nothing changed, and no
 *    password hashed (so posting made-up links cannot fill the hashing queue);
 * 3. the new password is hashed (429 when the hashing queue is full, the link put back) and
 *    replaces the `credentials` account's ({@link replacePasswordHash});
 * 4. the user is signed in with a new session ({@link finishSignIn}): every other session of
 *    the user is ended first, unless `passwords.endOtherSessions` is false ({@link endUserSessions}:
 *    database rows deleted, JWTs at their next revalidation); the email's failed sign-in count is cleared, and an address never proven
 *    before is proven (the link reached it: {@link proveAddress} removes the passkeys and OAuth
 *    links set up before and ends every session); a notice goes to the address ({@link sendNotice}).
 *    Ends with a 303 to the validated `callbackUrl`, or `/`.
 * @throws {AdapterError} the adapter failed (the page shows SvelteKit's error page).
 */
export async function resetPasswordAction(event: RequestEvent, config: ResolvedConfig): Promise<PasswordFormFailure> {
	const form = await readForm(event.request);
	const email = normalizeEmail(formText(form.get('email')) ?? '');
	const token = formText(form.get('token'));
	const invalidLink = () =>
		fail(400, { error: 'Verification', message: 'This reset link is invalid, used or expired. Ask for a new one.', email });
	if (!token || !isEmail(email)) return invalidLink();
	const checked = await checkNewPassword(form.get('password'), config, { email, url: event.url });
	if (!checked.ok) return fail(400, { error: checked.code, message: checked.message, email });
	let account: AdapterAccount | null;
	try {
		const used = await useVerificationToken(config, resetIdentifier(email), token);
		let hash: string;
		try {
			hash = await hashPassword(checked.password);
		} catch (err) {
			// The hashing queue is full: the link goes back, for the visitor to try again.
			await need(config, 'createVerificationToken')(used);
			throw err;
		}
		account = await need(config, 'getAccount')(email, PASSWORD_PROVIDER);
		if (!account) throw new Verification(`The account of ${email} has no password any more.`);
		await storePasswordHash(config, account, hash);
	} catch (err) {
		const refused = refusedAttempt(event, config, err, email, 'Password reset');
		if (refused) return refused;
		if (!(err instanceof Verification)) throw err;
		config.logger.error(err);
		return invalidLink();
	}
	await clearSignInCount(event, config, email);
	let user = await need(config, 'getUser')(account.userId);
	if (!user) return invalidLink();
	// The link reached the address: it is proven, and what was set up before the proof ends
	// (the new password stays: the owner just chose it).
	let removed = nothingRemoved();
	const othersEnd = !user.emailVerified || config.passwords.endOtherSessions;
	if (!user.emailVerified) ({ user, removed } = await proveAddress(event, config, user, account));
	else if (othersEnd) await endUserSessions(event, config, user.id);
	sendNotice(event, config, user.email, othersEnd ? 'password-changed' : 'password-changed-others-kept');
	return finishSignIn(event, config, toUser(user), passwordAccount(user.id), afterProof(event, config, removed, callbackUrlOf(event, form)));
}

/**
 * What the account page shows once the password is changed: `othersSignedOut`, whether the other
 * sessions were ended (`passwords.endOtherSessions`).
 */
export type PasswordChanged = { passwordChanged: true; othersSignedOut: boolean };

/**
 * The account page's change-password action, for the signed-in user ({@link requireUser}: a
 * visitor who is not is sent to sign in). Form fields: `currentPassword` and the new `password`.
 * 1. the user's `credentials` account is found by their email, or for a user without one by their
 *    name (the username a password account carried over from Lucia is keyed by), and must be
 *    this user's (400 `NoPassword` without one);
 * 2. the attempt is counted against the `signIn` limits as a password sign-in of the email from
 *    this client, since it is a guess at the password too ({@link countPasswordAttempt}: 429 with
 *    `Retry-After`; 503 when the store is down);
 * 3. the new password is checked (400 with its code), the current one verified (400
 *    `WrongPassword`), the new one hashed and stored ({@link replacePasswordHash});
 * 4. every session of the user is ended, unless `passwords.endOtherSessions` is false
 *    ({@link endUserSessions}: database rows at once, JWTs at their next revalidation), this
 *    browser gets a new one, and a notice goes to the address
 *    ({@link sendNotice}).
 * @returns `{ passwordChanged: true, othersSignedOut }`, or the refusal (`form` = `{ error, message }`)
 * @throws {AdapterError} the adapter failed.
 */
export async function changePasswordAction(event: RequestEvent, config: ResolvedConfig): Promise<PasswordChanged | PasswordFormFailure> {
	const user = await requireUser(event);
	const form = await readForm(event.request);
	const found = await passwordAccountOf(config, user);
	if (!found) return fail(400, { error: 'NoPassword', message: 'This account has no password to change.' });
	const { email, account } = found;
	try {
		const limits = config.rateLimits;
		if (limits) await countPasswordAttempt(limits, email, clientAddress(event));
		const checked = await checkNewPassword(form.get('password'), config, { email, url: event.url });
		if (!checked.ok) return fail(400, { error: checked.code, message: checked.message });
		if (!(await verifyPassword(formText(form.get('currentPassword')) ?? '', account.password_hash))) {
			return fail(400, { error: 'WrongPassword', message: 'Your current password is not right.' });
		}
		await storePasswordHash(config, account, await hashPassword(checked.password));
	} catch (err) {
		const refused = refusedAttempt(event, config, err, email, 'Password change');
		if (refused) return refused;
		throw err;
	}
	await clearSignInCount(event, config, email);
	if (config.passwords.endOtherSessions) await endUserSessions(event, config, account.userId);
	await startSession(event, config, user, passwordAccount(account.userId));
	sendNotice(event, config, user.email, config.passwords.endOtherSessions ? 'password-changed' : 'password-changed-others-kept');
	return { passwordChanged: true, othersSignedOut: config.passwords.endOtherSessions };
}

/**
 * The user's `credentials` account, found by their email, or for a user without one by their name
 * (the username a password account carried over from Lucia is keyed by), when it is theirs and
 * has a password; null otherwise. `email` is the key it was found under.
 * @throws {AdapterError} the adapter failed; {@link MissingAdapter} it lacks `getAccount`.
 */
export async function passwordAccountOf(config: ResolvedConfig, user: Pick<User, 'id' | 'email' | 'name'>): Promise<{ email: string; account: AdapterAccount & { password_hash: string } } | null> {
	const email = user.email ?? normalizeEmail(user.name ?? '');
	const account = email ? await need(config, 'getAccount')(email, PASSWORD_PROVIDER) : null;
	if (!account || account.userId !== user.id || typeof account.password_hash !== 'string') return null;
	return { email, account: account as AdapterAccount & { password_hash: string } };
}

/**
 * The account's address changed from `previous` to `user.email`: the user's password account,
 * keyed by the address, moves with it ({@link replaceAccount}); nothing for a user without one.
 * @throws {AdapterError} the adapter failed (the account is linked back under the old address).
 */
export async function movePasswordAccount(user: AdapterUser, config: ResolvedConfig, _provider: unknown, previous: string): Promise<void> {
	const found = await passwordAccountOf(config, { id: user.id, email: previous, name: user.name });
	if (!found || !user.email) return;
	const adapter = { unlinkAccount: need(config, 'unlinkAccount'), linkAccount: need(config, 'linkAccount') };
	await replaceAccount(adapter, found.account, { providerAccountId: normalizeEmail(user.email) }, config.logger);
}

/** What the account page shows once a password is set. */
export type PasswordSet = { passwordSet: true };

/**
 * The account page's "Set a password", for a signed-in user who has none (they signed up with an
 * OAuth provider, an email link or a passkey). Form field: the new `password`.
 * 1. the sign-in must be recent (`session.freshAge`; OWASP ASVS 5.0 7.5.1): else 401
 *    `ReauthenticationRequired` with the sign-in URL that comes back to `?resume=setPassword`;
 * 2. the user must have an address (400 `NoEmail`: a password account is keyed by it), no password
 *    yet (400 `HasPassword`: change it instead), and no other user may hold a password account
 *    at that address (400 `EmailInUse`);
 * 3. the password is checked ({@link checkNewPassword}: 400 with its code), hashed (429 when the
 *    hashing queue is full) and stored as the user's `credentials` account (`linkAccount`); a
 *    notice goes to the address ({@link sendNotice}).
 * @returns `{ passwordSet: true }`, or the refusal (`form` = `{ error, message }`)
 * @throws {AdapterError} the adapter failed.
 */
export async function setPasswordAction(event: RequestEvent, config: ResolvedConfig): Promise<PasswordSet | PasswordFormFailure | AccountFailure> {
	const user = await requireUser(event);
	if (!signedInRecently(await currentSession(event, config), config)) return reauthenticationRequired(event, config, { action: 'setPassword' });
	const form = await readForm(event.request);
	if (!user.email) return fail(400, { error: 'NoEmail', message: 'A password needs an email address on the account.' });
	const email = normalizeEmail(user.email);
	const existing = await need(config, 'getAccount')(email, PASSWORD_PROVIDER);
	if (existing?.userId === user.id) return fail(400, { error: 'HasPassword', message: 'This account has a password already: change it instead.' });
	if (existing) return fail(400, { error: 'EmailInUse', message: 'Another account signs in with a password at this address.' });
	try {
		const checked = await checkNewPassword(form.get('password'), config, { email, url: event.url });
		if (!checked.ok) return fail(400, { error: checked.code, message: checked.message });
		const password_hash = await hashPassword(checked.password);
		await need(config, 'linkAccount')({ userId: user.id!, type: PASSWORD_PROVIDER, provider: PASSWORD_PROVIDER, providerAccountId: email, password_hash });
	} catch (err) {
		const refused = refusedAttempt(event, config, err, email, 'Password change');
		if (refused) return refused;
		throw err;
	}
	sendNotice(event, config, email, 'password-set');
	return { passwordSet: true };
}

/** {@link replacePasswordHash} with the config's adapter and logger. @throws {MissingAdapter} it lacks `unlinkAccount` or `linkAccount` (before anything is changed). */
const storePasswordHash = (config: ResolvedConfig, account: AdapterAccount, password_hash: string) =>
	replacePasswordHash({ unlinkAccount: need(config, 'unlinkAccount'), linkAccount: need(config, 'linkAccount') }, account, password_hash, config.logger);

/** A successful reset or change: the email's failed sign-ins are forgotten ({@link forgetPasswordAttempts}; a store failure is only logged). */
async function clearSignInCount(event: RequestEvent, config: ResolvedConfig, email: string): Promise<void> {
	try {
		if (config.rateLimits) await forgetPasswordAttempts(config.rateLimits, email, clientAddress(event));
	} catch (err) {
		config.logger.error(err as Error);
	}
}
