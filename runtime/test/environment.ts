/** Test stand-in for SvelteKit's `$app/environment`. */
export const dev = false;
export const building = false;
export const browser = false;
