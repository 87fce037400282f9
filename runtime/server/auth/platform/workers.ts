// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.

/**
 * Whether this runs on Cloudflare Workers (workerd), whose `navigator.userAgent` says so. There,
 * an isolate has 128 MB of memory for every request it serves, and no file system holds the
 * app's `node_modules`.
 * @see https://developers.cloudflare.com/workers/runtime-apis/web-standards/#navigatoruseragent
 */
export const ON_WORKERS = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
