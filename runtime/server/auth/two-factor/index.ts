// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Two-factor authentication: codes from an authenticator app (TOTP, RFC 6238) and recovery codes,
 * asked after a first factor. `src/auth.ts` passes `TwoFactor()` as the config's `twoFactor`; the
 * pages import the rest from here, so an app without it loads none of this.
 *
 * - `second-factor.ts` — `TwoFactor()`: the hook every sign-in asks (`challenge`), its options.
 * - `second-step.ts` — the `/signin/two-factor` page: `twoFactorStep` (load), `verifyTwoFactor` (action).
 * - `enrolment.ts` — the account page's section: `twoFactorStatus` (load), `startTwoFactorSetup`,
 *   `enableTwoFactor`, `regenerateRecoveryCodes`, `disableTwoFactor` (actions).
 * - `factor.ts` — the stored factor: `sealTotpSecret`, `checkSecondFactor`.
 * - `pending.ts` — the pending sign-in between the two steps, in a sealed cookie.
 * - `totp.ts`, `recovery-codes.ts` — the codes themselves.
 *
 * Runtime modules import the module they need, never this index.
 * @see create-auth docs/api.md#two-factor-authentication
 */
export { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, startTwoFactorSetup, twoFactorStatus, type TwoFactorStatus } from './enrolment.js';
export { checkSecondFactor, type SecondFactorUsed } from './factor.js';
export { TwoFactor, TWO_FACTOR_METHODS, type FirstFactor, type TwoFactorConfig, type TwoFactorOptions } from './second-factor.js';
export { twoFactorStep, verifyTwoFactor, type TwoFactorFailure } from './second-step.js';
