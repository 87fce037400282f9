import type { PageServerLoad } from './$types';

// The auth apps' /protected page minus auth: the same shape of data, no session.
export const load: PageServerLoad = async () => {
	return { email: 'demo@example.com' };
};
