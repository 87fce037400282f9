// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Awaitable } from '../adapters/types.js';
import { linkMail } from '../email/mail.js';
import { smtpMailer, type SmtpMailerOptions } from '../email/smtp.js';
import { emailFlow } from '../signin/email.js';
import type { EmailConfig, VerificationRequestParams } from './types.js';

/** Options of {@link Email}. Durations are in seconds. */
export interface EmailOptions {
	/** Default `email`. */
	id?: string;
	/** Default `Email`. */
	name?: string;
	/** The SMTP server (`EMAIL_SERVER`); unset or empty: each link is printed to the server's log (see {@link smtpMailer}). */
	server?: SmtpMailerOptions['server'];
	/** The sender (`EMAIL_FROM`); unset or empty: `Sign-in <no-reply@localhost>` (see {@link smtpMailer}). */
	from?: string;
	/** Seconds a link stays valid. Default 24 hours. */
	maxAge?: number;
	/** Sends the link some other way (an email API, say); `server` and `from` are then unused. */
	sendVerificationRequest?(params: VerificationRequestParams): Awaitable<void>;
}

/**
 * The `email` provider: sign-in with a one-time link sent to the user's address ("magic
 * link"), over SMTP with nodemailer. The flow (token, limits, the link's page) is the
 * runtime's (`signin/email.ts`, the flow it carries); this module only sends.
 * @see create-auth docs/api.md#email
 */
export default function Email(options: EmailOptions = {}): EmailConfig {
	const { server, from, maxAge = 24 * 60 * 60, sendVerificationRequest, ...names } = options;
	const mailer = smtpMailer({ server, from });
	const send =
		sendVerificationRequest ??
		(({ identifier, url, expires }: VerificationRequestParams) => {
			const { host } = new URL(url);
			return mailer(linkMail(identifier, { subject: `Sign in to ${host}`, intro: `Sign in to ${host}:`, action: 'Sign in', url, expires }));
		});
	return { id: 'email', name: 'Email', ...names, type: 'email', flow: emailFlow, maxAge, sendVerificationRequest: send };
}
