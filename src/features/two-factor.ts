import type { FeatureDescriptor, ProviderScaffold } from '../providers/types.js';

/** The provider types a second factor follows by default (`TwoFactor()`'s `after`): passwords and email links. */
const FIRST_FACTORS: readonly ProviderScaffold['type'][] = ['credentials', 'email'];

/** Whether two-factor authentication is worth offering with these providers: one of them is a first factor it follows. */
export const twoFactorOffered = (providers: readonly ProviderScaffold[]) => providers.some((provider) => FIRST_FACTORS.includes(provider.type));

/**
 * Two-factor authentication (`--two-factor`, `create-auth add-feature two-factor`): `src/auth.ts`
 * passes `TwoFactor()` (section `auth/config`); `/signin/two-factor` asks a signed-in-but-not-yet
 * user for a code; `/account` gets a section to turn it on (QR code, recovery codes) and off.
 * Needs an adapter with the second factors' tables (all but `hosted-db`).
 */
export const twoFactor: FeatureDescriptor = {
	id: 'two-factor',
	label: 'two-factor authentication',
	chosen: (answers) => answers.twoFactor === true,
	imports: [{ names: '{ TwoFactor }', module: 'server/auth/two-factor/index' }],
	env: [],
	routes: ['signin/two-factor/+page.server.ts', 'signin/two-factor/+page.svelte'],
	// otpauth: the codes (RFC 6238); uqr: the QR code the account page shows.
	dependencies: ['otpauth', 'uqr'],
	needs: [{ capability: 'two-factor', why: 'store second factors: its schema has no table for them' }],
	// Its page sections: templates/features/two-factor/<page>/<slot>.hbs.
	sections: ['auth/config', 'account-server/imports', 'account-server/load', 'account-server/actions', 'account/actions', 'account/styles']
};
