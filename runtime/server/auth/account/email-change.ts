// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Changing the account's address: a one-time link to the new address confirms it; the address is
 * not changed before the link is used, and a notice goes to the old one.
 * @see create-auth docs/api.md#changing-the-email-address
 */
import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { need } from '../adapters/methods.js';
import { isEmail, normalizeEmail } from '../email/address.js';
import { linkMail } from '../email/mail.js';
import { sendNotice } from '../email/notices.js';
import { emailedLinkUrl, issueVerificationToken, useVerificationToken } from '../email/verification-tokens.js';
import { EmailSignInError, Verification } from '../errors.js';
import { appBase } from '../http/app-paths.js';
import { formText, readForm, refusedLinkRequest } from '../http/form.js';
import { requestConfig, requireUser } from '../http/guards.js';
import { appOriginOf } from '../http/redirects.js';
import { currentSession, endUserSessions, startSession, toUser } from '../session/session.js';
import { reauthenticationRequired, signedInRecently, type AccountFailure } from './recent-sign-in.js';

/** How long a link to confirm a new address works: seconds. */
export const EMAIL_CHANGE_MAX_AGE = 60 * 60;

/** The verification-token identifier of a change of `userId`'s address to `email`: the token is bound to both. */
const changeIdentifier = (userId: string, email: string) => `email-change:${userId}:${email}`;

/** What the account page shows once the link is sent: the same whether or not it could be (see {@link requestEmailChange}). */
export type EmailChangeRequested = { emailChangeSent: string };

/**
 * The account page's "Change email" (form field `email`, the new address). Needs a sign-in within
 * `session.freshAge` (401 `ReauthenticationRequired`). The address is normalized and checked (400
 * `InvalidEmail`; 400 `SameEmail` for the current one), the attempt counted against the
 * `emailLink` limits (429 with `Retry-After`; 503 when the store is down). Unless another account
 * has the address, a one-time link (1 hour) to the account page (`pages.account`, with `token`
 * and `email`) goes to it, bound to this user and that address; the answer is the same either way, so the form tells no one which addresses
 * have accounts, and it does not wait for the mail (a failure is logged as {@link EmailSignInError}).
 * The address changes only when the link is used ({@link confirmEmailChange}).
 * @throws {UntrustedHost} neither `AUTH_URL` nor a trusted host.
 * @throws {AdapterError} the adapter failed.
 */
export async function requestEmailChange(event: RequestEvent): Promise<EmailChangeRequested | AccountFailure | ActionFailure<{ error: string; message: string; email: string }>> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	const form = await readForm(event.request);
	const typed = formText(form.get('email')) ?? '';
	if (!signedInRecently(await currentSession(event, config), config)) return reauthenticationRequired(event, config, { action: 'requestEmailChange' });
	const email = normalizeEmail(typed);
	const refuse = (error: string, message: string) => fail(400, { action: 'requestEmailChange', error, message, email: typed });
	if (!isEmail(email)) return refuse('InvalidEmail', 'Enter a valid email address.');
	if (email === normalizeEmail(user.email ?? '')) return refuse('SameEmail', 'That is your address already.');
	const refused = await refusedLinkRequest(event, config, email, typed, 'Email change');
	if (refused) return refused;
	const origin = appOriginOf(event.url, config);
	if (!(await need(config, 'getUserByEmail')(email))) {
		const { token, expires } = await issueVerificationToken(config, changeIdentifier(user.id!, email), EMAIL_CHANGE_MAX_AGE);
		const url = emailedLinkUrl({ origin, base: appBase(event.url, config) }, config.pages.account, { token, email });
		const { host } = new URL(origin);
		const mail = linkMail(email, { subject: `Confirm your new email address for ${host}`, intro: `Confirm that your account on ${host} should use this address from now on:`, action: 'Confirm new address', url, expires });
		config.mailer(mail).catch((err: unknown) => {
			config.logger.error(new EmailSignInError(`Sending the email-change link to ${email} failed.`, { err: err as Error }));
		});
	}
	return { emailChangeSent: email };
}

/**
 * The account page's "Confirm new address", which the link opens (`pages.account?token=…&email=…`,
 * under the page's guard: the user signs in first if they are not; see {@link pendingEmailChange}).
 * Opening the link changes nothing (mail scanners burn nothing); this POST of its `token` and
 * `email` does, for the signed-in user it was sent for:
 * 1. the token is used, once ({@link useVerificationToken}); one of another user, another
 *    address, used, expired or forged is a 400 `Verification`, nothing changed;
 * 2. an address another account got since is a 409 `EmailInUse`, nothing changed (the
 *    "unexpired email change" of the pre-hijacked accounts study, USENIX Security 2022);
 * 3. the user's `email` becomes the address, proven (`emailVerified` now), and what a provider's
 *    flow keys by the address moves with it (`AccountMethods.addressChanged`: the password account);
 * 4. every session of the user ends and this browser gets a new one (the old address is in the
 *    sessions), a notice goes to the old address, and a 303 to the account page with `?changed=address`.
 * @throws {AdapterError} the adapter failed.
 */
export async function confirmEmailChange(event: RequestEvent): Promise<ActionFailure<{ action: string; error: string; message: string }>> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	const form = await readForm(event.request);
	const email = normalizeEmail(formText(form.get('email')) ?? '');
	const token = formText(form.get('token')) ?? '';
	try {
		await useVerificationToken(config, changeIdentifier(user.id!, email), token);
	} catch (err) {
		if (!(err instanceof Verification)) throw err;
		config.logger.error(err);
		return fail(400, { action: 'confirmEmailChange', error: 'Verification', message: 'This link is invalid, used, expired, or for another account. Ask for a new one below.' });
	}
	if (await need(config, 'getUserByEmail')(email)) {
		return fail(409, { action: 'confirmEmailChange', error: 'EmailInUse', message: 'Another account has this address now. Your address is unchanged.' });
	}
	const stored = await need(config, 'getUser')(user.id!);
	if (!stored) return fail(400, { action: 'confirmEmailChange', error: 'Verification', message: 'This account is gone.' });
	const previous = stored.email;
	const updated = await need(config, 'updateUser')({ id: stored.id, email, emailVerified: new Date() });
	// What a flow keys by the address moves with it (the password account).
	if (previous) for (const provider of config.providers) await provider.flow?.account?.addressChanged?.(updated, config, provider, previous);
	await endUserSessions(event, config, stored.id);
	await startSession(event, config, toUser(updated), { type: 'email', provider: 'email-change', providerAccountId: email, userId: stored.id });
	sendNotice(event, config, previous, 'email-changed', email);
	redirect(303, `${appBase(event.url, config)}${config.pages.account}?changed=address`);
}

/** What the account page shows of a change the page's URL confirms (the emailed link's `token` and `email`). */
export interface PendingEmailChange {
	token: string;
	email: string;
}

/**
 * The change of address the account page's URL carries, from the emailed link (`?token=…&email=…`),
 * for the page to offer "Confirm"; null without one. Reading it changes nothing. The page's
 * response gets `Referrer-Policy: same-origin`, so the token in its URL goes to no other site.
 */
export function pendingEmailChange(event: RequestEvent): PendingEmailChange | null {
	const token = event.url.searchParams.get('token');
	const email = event.url.searchParams.get('email');
	if (!token || !email) return null;
	event.setHeaders({ 'referrer-policy': 'same-origin' });
	return { token, email: normalizeEmail(email) };
}
