import { credentials } from './credentials.js';
import type { ProviderScaffold } from './types.js';

/** Every provider id the CLI can scaffold, in prompt order. */
export const PROVIDERS: readonly ProviderScaffold[] = [credentials];

/** The scaffold for `id`, or undefined for an id the CLI does not know. */
export function findProvider(id: string): ProviderScaffold | undefined {
	return PROVIDERS.find((provider) => provider.id === id);
}

export type { ProviderScaffold } from './types.js';
