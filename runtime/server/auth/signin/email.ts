// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomUUID } from 'node:crypto';
import { fail, redirect, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import type { User } from '../../../auth/types.js';
import type { AdapterUser } from '../adapters/types.js';
import { appBase } from '../http/app-paths.js';
import type { Account, ProviderFlow, ResolvedConfig } from '../config.js';
import { requireAdapterMethods } from '../adapters/methods.js';
import { isEmail, normalizeEmail } from '../email/address.js';
import { AdapterError, CallbackRouteError, EmailSignInError, Verification } from '../errors.js';
import { callbackUrlOf, clientAddress, formText, readForm } from '../http/form.js';
import type { EmailConfig } from '../providers/types.js';
import { countAttempt } from '../limits/rate-limit.js';
import { appOriginOf } from '../http/redirects.js';
import { seeOther } from '../http/see-other.js';
import { need } from '../adapters/methods.js';
import { afterProof, nothingRemoved, proveAddress, type ProofRemovals } from '../email/proof.js';
import { toUser, type SessionContext } from '../session/session.js';
import { completeSignIn, errorType, redirectTarget, signInErrorUrl } from './finish.js';
import { emailedLinkUrl, issueVerificationToken, useVerificationToken } from '../email/verification-tokens.js';

/** What email sign-in needs of the adapter: the verification tokens, and users found or made by address. */
const EMAIL_ADAPTER_METHODS = [
	'createVerificationToken',
	'useVerificationToken',
	'getUserByEmail',
	'createUser',
	'updateUser',
	'getUserByAccount',
	'linkAccount'
] as const;

/**
 * The email-link flow, which `Email()` puts on its provider:
 * - `signIn`: sends a one-time link to the posted address ({@link sendSignInLink}) and goes to
 *   the verify-request page ("check your email"), or answers 400 for a malformed address;
 * - `actions.emailLink`: the page the link opens posts here ({@link emailLinkAction});
 * - `check`: the adapter must have what email sign-in needs (`MissingAdapter` at startup);
 * - `account`: a user with an address can always sign in with a link to it (not removable).
 * @see create-auth docs/api.md#email
 */
export const emailFlow: ProviderFlow<EmailConfig> = {
	signIn: (event, config, provider, form) => sendSignInLink(event, config, provider, form),
	actions: { emailLink: emailLinkAction },
	check: (provider, config) => requireAdapterMethods(config.adapter, EMAIL_ADAPTER_METHODS, `The ${provider.id} provider`),
	account: {
		list: async (user, _config, provider) =>
			user.email ? [{ provider: provider.id, kind: 'email', id: 'email', label: 'Email link', detail: `A sign-in link to ${user.email}`, removable: false, renamable: false }] : []
	}
};

/** The refusal of an address that is not one (400); `email` refills the form. */
export type InvalidEmailFailure = ActionFailure<{ error: 'InvalidEmail'; message: string; email: string }>;

/**
 * The email provider's part of the `signIn` action: sends a one-time sign-in link to the
 * posted `email` and returns the verify-request page ("check your email") to go to. The answer
 * is the same whether or not the address has an account.
 *
 * Steps: the address is normalized (trimmed, lowercased) and checked; the attempt is counted
 * against the `emailLink` rate limits (per client address, then per address); a one-time token
 * is issued ({@link issueVerificationToken}) with the address as `identifier`, for the
 * provider's `maxAge`; the link, on the trusted origin ({@link appOriginOf}), is the
 * `emailLink` page with `token`, `email` and the validated `callbackUrl`; the provider's
 * `sendVerificationRequest` sends it.
 * @returns the 400 answer for a malformed address, else the verify-request page's path (under SvelteKit's `paths.base`)
 * @throws {RateLimited} over an `emailLink` limit; {@link RateLimitStoreError} the store is down.
 * @throws {UntrustedHost} neither `AUTH_URL` nor a trusted host: a link must never name a
 *   `Host` header nobody vouched for (the token would go there).
 * @throws {EmailSignInError} sending failed (the token stays unused until it expires).
 * @throws {AdapterError} storing the token failed.
 */
export async function sendSignInLink(
	event: RequestEvent,
	config: ResolvedConfig,
	provider: EmailConfig,
	form: FormData
): Promise<InvalidEmailFailure | string> {
	const typed = formText(form.get('email')) ?? '';
	const email = normalizeEmail(typed);
	if (!isEmail(email)) return fail(400, { error: 'InvalidEmail', message: 'Enter a valid email address.', email: typed });
	const limits = config.rateLimits;
	if (limits) await countAttempt(limits, [[limits.emailLinkPerClient, clientAddress(event)], [limits.emailLinkPerEmail, email]]);

	const origin = appOriginOf(event.url, config);
	const { token, expires } = await issueVerificationToken(config, email, provider.maxAge);
	const url = emailedLinkUrl({ origin, base: appBase(event.url, config) }, config.pages.emailLink, { token, email }, callbackUrlOf(event, form));
	try {
		await provider.sendVerificationRequest({ identifier: email, url, expires, provider, token, request: event.request });
	} catch (err) {
		throw new EmailSignInError(`Sending the sign-in link to ${email} failed.`, { provider: provider.id, err: err as Error });
	}
	return `${appBase(event.url, config)}${config.pages.verifyRequest}?${new URLSearchParams({ provider: provider.id, type: 'email' })}`;
}

/**
 * The form action of the page an emailed link opens (`pages.emailLink`). Opening the link is a
 * plain GET that changes nothing, so mail scanners and link previewers that open it first burn
 * nothing; the page's "Continue signing in" form posts `token`, `email` (and `callbackUrl`)
 * here, and only this POST uses the token.
 *
 * The token is used ({@link useVerificationToken}: once, under any current secret). An
 * unknown, used, expired or other address's token ends on the sign-in page with
 * `?error=Verification`. Then the user with that address signs in, made on the first
 * sign-in, with `emailVerified` set to the date of the first email sign-in; the `email` account
 * (`providerAccountId`: the address) is linked once. Ends with a 303 to the validated
 * `callbackUrl`, or `/`.
 * @throws {MissingAdapter} the adapter lacks a method this needs (checked at startup already).
 * @see create-auth docs/api.md#email, #adapter-records (`emailVerified`)
 */
export async function emailLinkAction(event: RequestEvent, config: ResolvedConfig, provider: EmailConfig) {
	const form = await readForm(event.request);
	const callbackUrl = callbackUrlOf(event, form);
	let next: string;
	try {
		const { user, removed } = await verifiedUser(event, config, provider, formText(form.get('email')), formText(form.get('token')));
		const account: Account = { type: provider.type, provider: provider.id, providerAccountId: user.email! };
		const target = afterProof(event, config, removed, callbackUrl);
		next = await redirectTarget(event, config, (await completeSignIn(event, config, user, account, { redirectTo: target })) ?? target);
	} catch (err) {
		const known = errorType(err, 'CallbackRouteError');
		config.logger.error(known === 'CallbackRouteError' ? new CallbackRouteError('Email sign-in failed.', { provider: provider.id, err: err as Error }) : (err as Error));
		redirect(303, signInErrorUrl(event, config, known, { callbackUrl }));
	}
	seeOther(next);
}

/**
 * Uses the link's token and returns the user it signs in, its `email` account linked: made on
 * the first sign-in, or its address proven ({@link proveAddress}: on an account whose address
 * was never proven, the password, passkeys, OAuth links and sessions set up before end).
 * @throws {Verification} no such token for this address (unknown, used, tampered, another
 *   address's), or it expired.
 */
async function verifiedUser(
	context: SessionContext,
	config: ResolvedConfig,
	provider: EmailConfig,
	typed: string | undefined,
	token: string | undefined
): Promise<{ user: User; removed: ProofRemovals }> {
	const email = normalizeEmail(typed ?? '');
	if (!token || !isEmail(email)) throw new Verification('The email link has no token or no valid address.');
	await useVerificationToken(config, email, token);
	const now = new Date();
	const account = { provider: provider.id, providerAccountId: email };
	const known = await need(config, 'getUserByEmail')(email);
	const { user, removed } = known ? await proveAddress(context, config, known, account) : { user: await createEmailUser(config, email, now), removed: nothingRemoved() };
	const linked = () => need(config, 'getUserByAccount')(account);
	if (!(await linked())) {
		try {
			await need(config, 'linkAccount')({ ...account, type: 'email', userId: user.id });
		} catch (err) {
			// A concurrent first sign-in for this address linked it first: the account is there.
			if (!(await linked())) throw err;
		}
	}
	return { user: toUser(user), removed };
}

/** The first email sign-in's user. A concurrent one for the same address (two links, two tabs) may win the race: its user is the one. */
async function createEmailUser(config: ResolvedConfig, email: string, now: Date): Promise<AdapterUser> {
	try {
		return await need(config, 'createUser')({ id: randomUUID(), email, emailVerified: now, name: null, image: null });
	} catch (err) {
		const winner = await need(config, 'getUserByEmail')(email);
		if (winner) return winner;
		throw err instanceof AdapterError ? err : new AdapterError('Creating the user failed.', { err: err as Error });
	}
}
