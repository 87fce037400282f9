// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/** One mail the runtime sends: a link in plain text and in simple HTML. */
export interface MailMessage {
	/** The recipient's address. */
	to: string;
	subject: string;
	text: string;
	html: string;
}

/**
 * Sends the runtime's own mails (password-reset and email-verification links). Resolves once
 * the mail is handed over; rejects when it could not be.
 */
export type Mailer = (message: MailMessage) => Promise<void>;

/** Development's {@link Mailer}: the mail's text goes to the server's log (`console.info`), where the developer opens its link. */
export async function logMailer({ to, subject, text }: MailMessage): Promise<void> {
	console.info(`[create-auth] EMAIL_SERVER is not set, so no email was sent. To ${to}, "${subject}":\n${text}`);
}

/**
 * A mail carrying one link: `intro` and a button naming `action`, the link's lifetime, and what
 * to do if the recipient did not ask for it. `intro` is plain text (escaped in the HTML).
 */
export function linkMail(to: string, { subject, intro, action, url, expires }: { subject: string; intro: string; action: string; url: string; expires: Date }): MailMessage {
	const until = expires.toUTCString();
	const note = `The link works once, until ${until}. If you did not ask for it, ignore this email.`;
	return {
		to,
		subject,
		text: `${intro}\n\n${url}\n\n${note}\n`,
		html: `<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;border-radius:6px;background:#0969da;color:#fff;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#59636e">${escapeHtml(note)}</p>`
	};
}

/** `text` safe inside HTML: `& < > " '` as character references. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
