// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { credentialsFlow } from '../signin/credentials.js';
import type { CredentialsConfig } from './types.js';

/** Options of {@link Credentials}: the config without `type`, with `id` and `name` optional. */
export type CredentialsOptions<C extends string> = Omit<CredentialsConfig<C>, 'type' | 'id' | 'name' | 'flow'> &
	Partial<Pick<CredentialsConfig<C>, 'id' | 'name'>>;

/**
 * The `credentials` provider: sign-in with fields checked by your `authorize()`.
 * Defaults: `id` `credentials`, `name` `Credentials`. Always uses the session strategy of
 * the config; the user returned by `authorize()` is what the session holds. Its flow
 * (`signin/credentials.ts`) also offers the password-account actions (`signUp`, the reset and
 * change of a password, the address confirmation: `passwords/`).
 * @see create-auth docs/api.md#credentials
 */
export default function Credentials<C extends string = string>(options: CredentialsOptions<C>): CredentialsConfig<C> {
	return { id: 'credentials', name: 'Credentials', ...options, type: 'credentials', flow: credentialsFlow };
}
