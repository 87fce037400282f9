import { SvelteKitAuth } from '@auth/sveltekit';
import Credentials from '@auth/sveltekit/providers/credentials';

/** The one account the bench signs in with (Auth.js has no sign-up of its own). */
export const DEMO_USER = { id: '1', name: 'Demo', email: 'demo@example.com' };
const DEMO_PASSWORD = 'correct horse battery staple';

// AUTH_SECRET comes from the environment ($env/dynamic/private), as Auth.js documents.
export const { handle, signIn, signOut } = SvelteKitAuth({
	trustHost: true,
	session: { strategy: 'jwt' },
	providers: [
		Credentials({
			credentials: { email: {}, password: {} },
			authorize: async (credentials) =>
				credentials.email === DEMO_USER.email && credentials.password === DEMO_PASSWORD ? DEMO_USER : null
		})
	]
});
