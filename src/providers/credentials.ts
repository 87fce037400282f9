import type { ProviderScaffold } from './types.js';

/** Email + password, stored through the adapter with a scrypt hash; adds the `/signup` page. */
export const credentials: ProviderScaffold = {
	id: 'credentials',
	label: 'Email and password',
	hint: 'sign-up page, scrypt-hashed passwords in your database',
	type: 'credentials',
	imports: [
		{ names: '{ authorizeWithPassword }', module: 'server/auth/passwords' },
		{ names: 'Credentials', module: 'server/auth/providers/credentials' }
	],
	env: [],
	routes: ['signup/+page.server.ts', 'signup/+page.svelte']
};
