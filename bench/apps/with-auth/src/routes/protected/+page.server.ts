import { redirect } from '@sveltejs/kit';
import type { PageServerLoad } from './$types';

// Two calls, as a page and the code it uses often make: the second should cost nothing.
export const load: PageServerLoad = async (event) => {
	const session = await event.locals.auth();
	const again = await event.locals.auth();
	if (!session?.user?.email || !again?.user) redirect(303, '/signin');
	return { email: session.user.email };
};
