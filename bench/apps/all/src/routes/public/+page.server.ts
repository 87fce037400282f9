import type { PageServerLoad } from './$types';

export const load: PageServerLoad = () => ({ message: 'Hello from a public page.' });
