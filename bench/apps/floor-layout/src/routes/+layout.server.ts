import type { LayoutServerLoad } from './$types';

// The floor plus what every create-auth app has: a root layout server load (here without auth).
export const load: LayoutServerLoad = async () => {
	return { session: null };
};
