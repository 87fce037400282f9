import type { LayoutServerLoad } from './$types';

// The shape every create-auth app has (a root layout load handing the session to pages), here
// with what Better Auth's hook has already looked up for this request.
export const load: LayoutServerLoad = async (event) => {
	return { user: event.locals.user ?? null };
};
