import type { ProviderScaffold } from './types.js';

/** Sign-in with a one-time link sent by email (nodemailer over SMTP); adds the link's page and the "check your email" page. */
export const email: ProviderScaffold = {
	id: 'email',
	label: 'Email link',
	hint: 'a one-time sign-in link by email; printed to the server log until EMAIL_SERVER is set',
	type: 'email',
	imports: [{ names: 'Email', module: 'server/auth/providers/email' }],
	env: [
		{ key: 'EMAIL_SERVER', description: 'SMTP server for sign-in links, e.g. smtp://user:password@smtp.example.com:587. Empty: links are printed to the server log.' },
		{ key: 'EMAIL_FROM', description: 'Sender of sign-in links, e.g. Example <no-reply@example.com>.' }
	],
	routes: ['signin/email/+page.server.ts', 'signin/email/+page.svelte', 'signin/verify-request/+page.svelte'],
	modules: ['server/auth/providers/email.ts'],
	dependencies: ['nodemailer'],
	devDependencies: ['@types/nodemailer']
};
