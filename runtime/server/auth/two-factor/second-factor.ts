// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * `TwoFactor()`: the config's `twoFactor`, the one hook the sign-in flows know (`completeSignIn`
 * asks its `challenge`). A user with a second factor who passes a first one that it follows
 * gets no session yet: a pending sign-in (./pending.ts) and the second step's page.
 * @see create-auth docs/api.md#two-factor-authentication
 */
import { randomUUID } from 'node:crypto';
import type { RequestEvent } from '@sveltejs/kit';
import type { User } from '../../../auth/types.js';
import { need, requireAdapterMethods } from '../adapters/methods.js';
import type { Account, ResolvedConfig, SecondFactor } from '../config.js';
import { appBase } from '../http/app-paths.js';
import { savePendingSignIn } from './pending.js';

/** A first factor, by the type of its provider's account: `credentials` (passwords), `email` (links), `oauth` and `oidc`, `webauthn` (passkeys). */
export type FirstFactor = Account['type'];

/** `TwoFactor()`'s options. */
export interface TwoFactorOptions {
	/**
	 * The first factors the second step follows, by account type. Default `['credentials',
	 * 'email']`: an OAuth or OpenID provider often asks for its own second factor; add `'oauth'`
	 * and `'oidc'` to ask here too. Leave `'webauthn'` out: a passkey verified with the user's PIN
	 * or biometrics is two factors already (NIST SP 800-63B-4 §3.1.7, multi-factor cryptographic
	 * authenticator).
	 */
	after?: FirstFactor[];
	/** The issuer name authenticator apps show beside the code. Default: the app's host. */
	issuer?: string;
	/** The second step's page, a path inside the app. Default `/signin/two-factor`. */
	page?: string;
	/**
	 * Whether turning two-factor on or off ends the user's other sessions (OWASP ASVS 5.0 7.4.3:
	 * after a change of any authentication factor); this browser's continues. Default true. With
	 * false, their `user.twoFactor` keeps what it was at their sign-in.
	 */
	endOtherSessions?: boolean;
}

/** The config's `twoFactor` as `TwoFactor()` makes it: the hook, and its options resolved. */
export interface TwoFactorConfig extends SecondFactor {
	after: readonly FirstFactor[];
	issuer?: string;
	page: string;
	endOtherSessions: boolean;
}

/** The adapter methods two-factor authentication needs (create-auth's adapters have them all; `hosted-db` does not). */
export const TWO_FACTOR_METHODS = ['getUser', 'getTwoFactor', 'createTwoFactor', 'updateTwoFactorSecret', 'deleteTwoFactor', 'useTotpStep', 'replaceRecoveryCodes', 'useRecoveryCode'] as const;

/**
 * Two-factor authentication for the config's `twoFactor`: TOTP codes (RFC 6238) from an
 * authenticator app, and recovery codes. Needs an adapter with {@link TWO_FACTOR_METHODS}
 * (checked when the config is resolved: `MissingAdapter`).
 * @see create-auth docs/api.md#two-factor-authentication
 */
export function TwoFactor(options: TwoFactorOptions = {}): TwoFactorConfig {
	const after = options.after ?? ['credentials', 'email'];
	const page = options.page ?? '/signin/two-factor';
	return {
		after,
		issuer: options.issuer,
		page,
		endOtherSessions: options.endOtherSessions ?? true,
		check(config) {
			requireAdapterMethods(config.adapter, TWO_FACTOR_METHODS, 'Two-factor authentication');
		},
		async challenge(event: RequestEvent, config: ResolvedConfig, user: User, account: Account, { profile, redirectTo }) {
			const enabled = user.id !== undefined && (await need(config, 'getTwoFactor')(user.id)) !== null;
			if (!enabled || !after.includes(account.type)) return { enabled };
			await savePendingSignIn(event, config, { id: randomUUID(), userId: user.id!, account, profile, redirectTo });
			return { secondStep: `${appBase(event.url, config)}${page}` };
		}
	};
}
