// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Adapters: the contract between the runtime and the app's data layer, and the built-in ones.
 *
 * - `types.ts` — the contract: `Adapter` (every method optional), its records (`AdapterUser`,
 *   `AdapterAccount`, `AdapterSession`, `VerificationToken`, `AdapterAuthenticator`).
 * - `methods.ts` — how flows call it: `need` (a method the flow cannot do without, else
 *   `MissingAdapter`), `adapterMethod` (one it can), `requireAdapterMethods` (a startup check);
 *   every failure becomes an `AdapterError` naming the method.
 * - `<id>.ts` — one built-in adapter each (`sqlite`, `postgres`, `mysql`, `drizzle`, `d1`,
 *   `hosted-db`, `memory`), imported by the generated `src/auth.ts` by its own path, so an app loads only its
 *   own and its driver; `sql.ts` is the SQL they share, `drizzle-schema/` and `migrations/` the
 *   tables per dialect. They are not re-exported here.
 *
 * Modules of the runtime import the module they need (`./methods.js`), not this index, so that
 * an app is vendored only what it reaches.
 * @see create-auth docs/api.md#adapters
 */
export { adapterMethod, need, requireAdapterMethods } from './methods.js';
export type {
	Adapter,
	AdapterAccount,
	AdapterAccountType,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	Awaitable,
	JsonValue,
	ProviderAccount,
	VerificationToken
} from './types.js';
