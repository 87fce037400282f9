// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The SMTP mailer, by the path the generated `src/auth.ts` imports it from. The code is
 * `email/smtp.ts` (nodemailer); this module only names it.
 * @see create-auth docs/api.md#mail
 */
export { DEFAULT_SENDER, smtpMailer, type SmtpMailerOptions } from './email/smtp.js';
