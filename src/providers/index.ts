import { credentials } from './credentials.js';
import { email } from './email.js';
import { github } from './github.js';
import { google } from './google.js';
import { idp } from './idp.js';
import { oidc } from './oidc.js';
import { passkey } from './passkey.js';
import { social } from './social.js';
import type { ProviderScaffold } from './types.js';

/**
 * The provider registry: every provider the CLI can scaffold, in prompt order, which is also the
 * order their page sections, exports and config entries appear in. Adding a provider is one line here.
 */
export const PROVIDERS: readonly ProviderScaffold[] = [credentials, email, passkey, idp, social, github, google, oidc];

/** The scaffold for `id`, or undefined for an id the CLI does not know. */
export function findProvider(id: string): ProviderScaffold | undefined {
	return PROVIDERS.find((provider) => provider.id === id);
}

export type { AdapterCapability, AdapterNeed, AppTypesEdit, Descriptor, FeatureDescriptor, ProviderEnvVar, ProviderImport, ProviderScaffold } from './types.js';
