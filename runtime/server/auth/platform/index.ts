// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * What the runtime needs to know of the JavaScript runtime it runs on.
 *
 * - `workers.ts` — `ON_WORKERS`: Cloudflare Workers (workerd), where password hashing takes a
 *   cost that fits an isolate's 128 MB (`passwords/hashing.ts`) and the password blocklist is
 *   read through the Worker's `ASSETS` binding (`passwords/blocklist.ts`).
 *
 * Runtime modules import the module they need, never this index, so that an app is vendored only
 * the modules it reaches; this index is the folder's table of contents.
 * @see create-auth docs/api.md#passwords
 */
export { ON_WORKERS } from './workers.js';
