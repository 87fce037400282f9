// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type { User } from '../../../auth/types.js';
import type { Awaitable } from '../adapters/types.js';

/** The provider types of the spec; this runtime implements `credentials`. */
export type ProviderType = 'oidc' | 'oauth' | 'email' | 'credentials' | 'webauthn';

/** Fields every provider has. `id` is what the sign-in form posts as `providerId`. */
export interface CommonProviderOptions {
	id: string;
	name: string;
	type: ProviderType;
}

/** Describes one input of a credentials form (used to label fields). */
export interface CredentialInput {
	label?: string;
	type?: string;
	placeholder?: string;
}

/**
 * A username/password-style provider. `authorize` receives the posted form fields (strings;
 * files are dropped) and the request, and returns the user or null to reject. It may throw
 * `CredentialsSignin` (or a subclass with its own `code`) to reject with a code.
 */
export interface CredentialsConfig<C extends string = string> extends CommonProviderOptions {
	type: 'credentials';
	credentials: Record<C, CredentialInput>;
	authorize(credentials: Partial<Record<C, unknown>>, request: Request): Awaitable<User | null>;
}

/** A provider, or a function that returns one (resolved once per config). */
export type Provider = CredentialsConfig | (() => CredentialsConfig);
