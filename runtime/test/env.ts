/** Test stand-in for SvelteKit's `$env/dynamic/private`: the process environment. */
export const env: Record<string, string | undefined> = process.env;
