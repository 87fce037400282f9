// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Awaitable } from '../adapters/types.js';
import type { EmailConfig, VerificationRequestParams } from './types.js';

/** Options of {@link Email}. Durations are in seconds. */
export interface EmailOptions {
	/** Default `email`. */
	id?: string;
	/** Default `Email`. */
	name?: string;
	/**
	 * The SMTP server (`EMAIL_SERVER`): a URL (`smtp://user:password@smtp.example.com:587`,
	 * `smtps://…:465` for TLS from the start) or nodemailer's SMTP options. Unset or empty: no
	 * mail is sent and each link is printed to the server's log instead, for development.
	 */
	server?: string | SMTPTransport.Options;
	/** The sender (`EMAIL_FROM`), e.g. `Example <no-reply@example.com>`. Unset or empty: `Sign-in <no-reply@localhost>`. */
	from?: string;
	/** Seconds a link stays valid. Default 24 hours. */
	maxAge?: number;
	/** Sends the link some other way (an email API, say); `server` and `from` are then unused. */
	sendVerificationRequest?(params: VerificationRequestParams): Awaitable<void>;
}

/**
 * The `email` provider: sign-in with a one-time link sent to the user's address ("magic
 * link"), over SMTP with nodemailer. The flow (token, limits, the link's page) is the
 * runtime's (`email.ts`); this module only sends.
 * @see spec/interface.md "Authentication" rule 8
 */
export default function Email(options: EmailOptions = {}): EmailConfig {
	const { server, from, maxAge = 24 * 60 * 60, sendVerificationRequest, ...names } = options;
	// An empty EMAIL_FROM (as .env has it at first) reads as unset.
	const sender = from || 'Sign-in <no-reply@localhost>';
	let transport: Transporter | undefined;
	const send =
		sendVerificationRequest ?? (server ? (params: VerificationRequestParams) => sendLink((transport ??= createTransport(server)), sender, params) : printLink);
	return { id: 'email', name: 'Email', ...names, type: 'email', maxAge, sendVerificationRequest: send };
}

/** Sends the sign-in mail: plain text and a simple HTML version, both naming the site and the link's lifetime. */
async function sendLink(transport: Transporter, from: string, { identifier, url, expires }: VerificationRequestParams): Promise<void> {
	const { host } = new URL(url);
	const until = expires.toUTCString();
	await transport.sendMail({
		to: identifier,
		from,
		subject: `Sign in to ${host}`,
		text: `Sign in to ${host}:\n\n${url}\n\nThe link works once, until ${until}. If you did not ask for it, ignore this email.\n`,
		html: `<p>Sign in to <strong>${escapeHtml(host)}</strong>:</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;border-radius:6px;background:#0969da;color:#fff;text-decoration:none">Sign in</a></p>
<p style="color:#59636e">The link works once, until ${escapeHtml(until)}. If you did not ask for it, ignore this email.</p>`
	});
}

/** Without an SMTP server (development): the link goes to the server's log, where the developer opens it. */
function printLink({ identifier, url }: VerificationRequestParams): void {
	console.info(`[create-auth] EMAIL_SERVER is not set, so no email was sent. Sign-in link for ${identifier}:\n${url}`);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
