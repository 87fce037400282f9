// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { logMailer, type Mailer } from './mail.js';

/** Options of {@link smtpMailer}. */
export interface SmtpMailerOptions {
	/**
	 * The SMTP server (`EMAIL_SERVER`): a URL (`smtp://user:password@smtp.example.com:587`,
	 * `smtps://…:465` for TLS from the start) or nodemailer's SMTP options. Unset or empty: no
	 * mail is sent and each one is printed to the server's log instead ({@link logMailer}).
	 */
	server?: string | SMTPTransport.Options;
	/** The sender (`EMAIL_FROM`), e.g. `Example <no-reply@example.com>`. Unset or empty: {@link DEFAULT_SENDER}. */
	from?: string;
}

/** The sender while `EMAIL_FROM` is unset or empty (as `.env` has it at first). */
export const DEFAULT_SENDER = 'Sign-in <no-reply@localhost>';

/**
 * A {@link Mailer} over SMTP with nodemailer; nodemailer is loaded, and the connection made, at
 * the first mail (loaded at server start, it held some 18 MB of the server's memory from then
 * on, in apps that may never send one). Without a `server`, mails go to the server's log
 * (`console.info`), so development needs no mail server.
 * The mailer rejects when nodemailer cannot be loaded (the next mail tries again) or the mail is refused.
 */
export function smtpMailer({ server, from }: SmtpMailerOptions = {}): Mailer {
	if (!server) return logMailer;
	const sender = from || DEFAULT_SENDER;
	let transport: Promise<Transporter> | undefined;
	const connect = () =>
		import('nodemailer').then(
			({ createTransport }) => createTransport(server),
			(err: unknown) => {
				transport = undefined;
				throw err;
			}
		);
	return async (message) => {
		await (await (transport ??= connect())).sendMail({ ...message, from: sender });
	};
}
