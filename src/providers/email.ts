import type { ProviderEnvVar, ProviderScaffold } from './types.js';

/**
 * The SMTP settings every emailed link goes out with: the email provider's sign-in links, and
 * the password-reset links of the mailer `src/auth.ts` gives the config with credentials.
 */
export const MAIL_ENV: ProviderEnvVar[] = [
	{ key: 'EMAIL_SERVER', description: 'SMTP server for emailed links (sign-in, password reset), e.g. smtp://user:password@smtp.example.com:587. Empty: links are printed to the server log.' },
	{ key: 'EMAIL_FROM', description: 'Sender of emailed links, e.g. Example <no-reply@example.com>.' }
];

/** The next step of every provider that sends mail, said once however many of them an app has. */
export const MAIL_STEP = "Mail (sign-in, password-reset and confirmation links) is printed to the dev server's log until EMAIL_SERVER and EMAIL_FROM are set in .env.";

/** Sign-in with a one-time link sent by email (nodemailer over SMTP); adds the link's page and the "check your email" page. */
export const email: ProviderScaffold = {
	id: 'email',
	label: 'Email link',
	hint: 'a one-time sign-in link by email; printed to the server log until EMAIL_SERVER is set',
	type: 'email',
	imports: [{ names: 'Email', module: 'server/auth/providers/email' }],
	env: MAIL_ENV,
	routes: ['signin/email/+page.server.ts', 'signin/email/+page.svelte', 'signin/verify-request/+page.svelte'],
	exports: ['emailLink'],
	trustedOrigin: { links: 'email sign-in links', flow: 'email sign-in' },
	sections: ['signin/link-messages', 'signin/fields'],
	emailField: true,
	dependencies: ['nodemailer'],
	devDependencies: ['@types/nodemailer'],
	nextSteps: () => [MAIL_STEP]
};
