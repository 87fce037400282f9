// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { RequestEvent } from '@sveltejs/kit';
import type { ResolvedConfig } from '../config.js';
import { EmailSignInError } from '../errors.js';
import { appBase } from '../http/app-paths.js';
import { appOriginOf } from '../http/redirects.js';
import { escapeHtml, type MailMessage } from './mail.js';

/** What a security notice tells the user happened to how they sign in. */
export type NoticeKind =
	| 'password-changed'
	| 'password-changed-others-kept'
	| 'password-set'
	| 'passkey-added'
	| 'account-linked'
	| 'account-deleted'
	| 'email-changed'
	| 'two-factor-enabled'
	| 'two-factor-disabled'
	| 'recovery-codes-replaced';

/** Each notice's subject and sentence; `what` names the passkey or provider. */
const NOTICES: Record<NoticeKind, (what: string) => { subject: string; sentence: string }> = {
	'password-changed': () => ({ subject: 'Your password was changed', sentence: 'The password of your account was changed, and your other devices were signed out.' }),
	'password-changed-others-kept': () => ({
		subject: 'Your password was changed',
		sentence: 'The password of your account was changed. Devices signed in before stay signed in: end the sessions you do not know on your account page.'
	}),
	'password-set': () => ({ subject: 'A password was added to your account', sentence: 'A password was set on your account: it signs in with your email address from now on.' }),
	'passkey-added': (what) => ({ subject: 'A passkey was added to your account', sentence: `A passkey${what ? ` (${what})` : ''} was added to your account: it signs in from now on.` }),
	'account-linked': (what) => ({ subject: `Your ${what} account was linked`, sentence: `Your ${what} account was linked to your account: signing in with ${what} signs into it from now on.` }),
	'email-changed': (what) => ({ subject: 'Your email address was changed', sentence: `Your account's email address was changed to ${what}: mail about it goes there from now on.` }),
	'two-factor-enabled': () => ({
		subject: 'Two-factor authentication was turned on for your account',
		sentence: 'Two-factor authentication was turned on for your account: signing in asks for a code from your authenticator app from now on.'
	}),
	'two-factor-disabled': () => ({
		subject: 'Two-factor authentication was turned off for your account',
		sentence: 'Two-factor authentication was turned off for your account: signing in no longer asks for a code.'
	}),
	'recovery-codes-replaced': () => ({
		subject: 'New recovery codes were made',
		sentence: 'New recovery codes were made for your two-factor authentication: the old ones no longer work.'
	}),
	'account-deleted': () => ({ subject: 'Your account was deleted', sentence: 'Your account was deleted, with how you signed in and every session.' })
};


/** Where a notice says the change happened, and what it names. */
export interface NoticeDetails {
	/** The app's host, as its links have it. */
	host: string;
	/** The account page's URL; absent where the app's origin cannot be trusted (no `AUTH_URL`, untrusted host). */
	accountUrl?: string;
	/** The passkey's or provider's name. */
	what?: string;
	at?: Date;
}

/**
 * Where `event`'s app is, for a notice: the trusted origin's host and account page (see
 * `appOriginOf`); without one, the request's host and no link, so a forged `Host` header never
 * puts its own address in a mail.
 */
export function noticePlace(event: RequestEvent, config: ResolvedConfig): Pick<NoticeDetails, 'host' | 'accountUrl'> {
	try {
		const origin = appOriginOf(event.url, config);
		return { host: new URL(origin).host, accountUrl: `${origin}${appBase(event.url, config)}${config.pages.account}` };
	} catch {
		return { host: event.url.host };
	}
}

/**
 * The mail of a security notice to `to`: what changed on `host`, when, and what to do if it was
 * not them (the account page, `accountUrl`, to see and undo it; a password reset if they cannot
 * sign in). Plain text, and the same in simple HTML.
 */
export function noticeMail(to: string, kind: NoticeKind, { host, accountUrl, what = '', at = new Date() }: NoticeDetails): MailMessage {
	const { subject, sentence } = NOTICES[kind](what);
	const when = `This happened on ${host} at ${at.toUTCString()}.`;
	const page = accountUrl ? `at ${accountUrl}` : 'on your account page';
	const advice = `If it was not you, sign in and review how you sign in ${page}, or reset your password from the sign-in page.`;
	return {
		to,
		subject: `${subject} on ${host}`,
		text: `${sentence}\n\n${when}\n\n${advice}\n`,
		html: `<p>${escapeHtml(sentence)}</p>\n<p>${escapeHtml(when)}</p>\n<p style="color:#59636e">${escapeHtml(advice)}</p>`
	};
}

/**
 * Sends a security notice through the config's `mailer` (the server log's `logMailer` when none
 * is configured), without waiting for it: a mail server that is down or slow delays nothing, and
 * its failure is logged as {@link EmailSignInError}. Nothing is sent to a user without an address.
 */
export function sendNotice(event: RequestEvent, config: ResolvedConfig, to: string | null | undefined, kind: NoticeKind, what?: string): void {
	if (!to) return;
	config.mailer(noticeMail(to, kind, { ...noticePlace(event, config), what })).catch((err: unknown) => {
		config.logger.error(new EmailSignInError(`Sending the ${kind} notice to ${to} failed.`, { err: err as Error }));
	});
}
