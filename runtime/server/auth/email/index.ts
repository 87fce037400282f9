// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Email: addresses, mail, and the one-time links the runtime mails.
 *
 * - `address.ts` — `normalizeEmail` (trimmed, lowercased), `isEmail`.
 * - `mail.ts` — `Mailer`, `MailMessage`, `logMailer` (the default: the server log), `linkMail`.
 * - `smtp.ts` — `smtpMailer` (nodemailer); apps import it as `../mail-smtp.ts`.
 * - `verification-tokens.ts` — one-time link tokens (32 random bytes; the adapter keeps their
 *   SHA-256 with the secret): `issueVerificationToken`, `useVerificationToken`, `emailedLinkUrl`.
 * - `verification.ts` — confirming a password account's address
 *   (`passwords.requireEmailVerification`): `sendEmailVerification`, `requireVerifiedEmail`,
 *   the `verifyEmail` action.
 * - `proof.ts` — an address proven (a link, a reset, a confirmation, a vouching OAuth provider):
 *   `proveAddress` ends what was set up before on an account that had never proven it
 *   (pre-hijacked accounts), `afterProof`, and the account page's `addressProvenNotice`.
 * - `notices.ts` — security notices to the user's address (password changed or set, passkey
 *   added, account linked): `sendNotice`, never waited for, linking only to the trusted origin.
 *
 * Sign-in by emailed link is a flow: `signin/email.ts`.
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#mail, #email
 */
export { isEmail, normalizeEmail } from './address.js';
export { linkMail, logMailer, type Mailer, type MailMessage } from './mail.js';
export { DEFAULT_SENDER, smtpMailer, type SmtpMailerOptions } from './smtp.js';
export { emailedLinkUrl, hashToken, issueVerificationToken, useVerificationToken } from './verification-tokens.js';
export {
	addressProvenNotice,
	afterProof,
	nothingRemoved,
	proofNoticeText,
	proveAddress,
	takeProofNotice,
	type ProofRemovals,
	type ProvenAddress
} from './proof.js';
export { noticeMail, noticePlace, sendNotice, type NoticeDetails, type NoticeKind } from './notices.js';
export {
	requireEmailVerificationAdapter,
	requireVerifiedEmail,
	sendEmailVerification,
	verifyEmailAction,
	type VerifyEmailFailure
} from './verification.js';
