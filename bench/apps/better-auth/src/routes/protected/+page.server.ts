import { redirect } from '@sveltejs/kit';
import type { PageServerLoad } from './$types';

// Better Auth's hook (sv's hooks.server.ts) looked the session up before this load: read what it set.
export const load: PageServerLoad = async (event) => {
	if (!event.locals.user?.email) redirect(303, '/demo/better-auth/login');
	return { email: event.locals.user.email };
};
