// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Turning two-factor authentication on and off on the account page: the secret shown as a QR code
 * and as text, confirmed with a first code before anything is stored; recovery codes shown once;
 * new codes or turning it off with a current code. Each change needs a recent sign-in
 * (`session.freshAge`, OWASP ASVS 5.0 7.5.1) and sends the user a notice.
 * @see create-auth docs/api.md#two-factor-authentication
 */
import { fail, type ActionFailure, type Cookies, type RequestEvent } from '@sveltejs/kit';
import { renderSVG } from 'uqr';
import { need } from '../adapters/methods.js';
import { reauthenticationRequired, signedInRecently, type AccountFailure } from '../account/recent-sign-in.js';
import type { ResolvedConfig } from '../config.js';
import { sendNotice } from '../email/notices.js';
import { appBase } from '../http/app-paths.js';
import { formText, readForm, refusedAttempt } from '../http/form.js';
import { requestConfig, requireUser } from '../http/guards.js';
import { countAttempt } from '../limits/rate-limit.js';
import { authCookie } from '../session/cookies.js';
import { seal, unseal } from '../session/jwt.js';
import { changeSessionTwoFactor, currentSession } from '../session/session.js';
import { checkSecondFactor, sealTotpSecret } from './factor.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import type { TwoFactorConfig } from './second-factor.js';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.js';

/** Seconds a started setup waits for its first code. */
const SETUP_MAX_AGE = 10 * 60;
const SETUP_SALT = 'auth.two-factor-setup';

/** What the account page's two-factor section shows. */
export interface TwoFactorStatus {
	/** The app has `TwoFactor()` and its adapter the methods. */
	available: boolean;
	/** The user has it on. */
	enabled: boolean;
	/** Unused recovery codes left (0 when off). */
	recoveryCodes: number;
	/**
	 * A setup started on this browser and not confirmed yet: the secret (base32, for typing it in),
	 * the `otpauth://` URI, and that URI as a QR code (an SVG element, to put in the page as it is).
	 */
	setup?: { secret: string; uri: string; qrCode: string };
}

/** The config's `TwoFactor()`, when the app has one. */
const twoFactorOf = (config: ResolvedConfig) => config.twoFactor as TwoFactorConfig | undefined;

/** The setup cookie: `auth.two-factor-setup`, on the account page's path. */
const setupCookie = (url: URL, config: ResolvedConfig) =>
	authCookie(url, config.useSecureCookies, 'two-factor-setup', { path: `${appBase(url, config)}${config.pages.account}` });

/** The secret of the setup this browser started for `userId`, or undefined (none, expired, another user's, tampered). */
async function setupSecret(context: { cookies: Cookies; url: URL }, config: ResolvedConfig, userId: string): Promise<string | undefined> {
	const value = context.cookies.get(setupCookie(context.url, config).name);
	const setup = value ? await unseal<{ userId: string; secret: string }>(value, config.secrets, SETUP_SALT) : null;
	return setup?.userId === userId && typeof setup.secret === 'string' ? setup.secret : undefined;
}

/** The account page's two-factor section for the signed-in user (a visitor who is not is sent to sign in). */
export async function twoFactorStatus(event: RequestEvent): Promise<TwoFactorStatus> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	const twoFactor = twoFactorOf(config);
	if (!twoFactor || !config.adapter?.getTwoFactor || !user.id) return { available: false, enabled: false, recoveryCodes: 0 };
	const stored = await config.adapter.getTwoFactor(user.id);
	const status: TwoFactorStatus = { available: true, enabled: stored !== null, recoveryCodes: stored?.recoveryCodes ?? 0 };
	const secret = stored ? undefined : await setupSecret(event, config, user.id);
	if (secret) {
		const uri = otpauthUri(secret, twoFactor.issuer ?? event.url.host, user.email ?? user.name ?? user.id);
		status.setup = { secret, uri, qrCode: renderSVG(uri, { ecc: 'M', border: 2 }) };
	}
	return status;
}

/** A two-factor action's refusal: `action` names its form. */
type Refusal = ActionFailure<{ action: string; error: string; message: string }>;
const refuse = (status: number, action: string, error: string, message: string): Refusal => fail(status, { action, error, message });

/** The signed-in user and config for an action that changes the second factor, or the refusal when the sign-in is not recent. */
async function changer(event: RequestEvent, action: string): Promise<{ userId: string; email?: string | null; config: ResolvedConfig } | AccountFailure> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	if (!signedInRecently(await currentSession(event, config), config)) return reauthenticationRequired(event, config, { action });
	return { userId: user.id!, email: user.email, config };
}

/**
 * Checks the form's `code` for `userId` ({@link checkSecondFactor}: spent when right), counted
 * first against `rateLimit.twoFactor.perAccount` like the second step's codes (a stolen session
 * cannot guess its way to turning the factor off); a right one clears that count. The refusal,
 * or undefined when the code was right: 400 `InvalidCode`, 429 `RateLimited` with
 * `Retry-After`, 503 while the rate-limit store is down.
 * @throws {AdapterError} the adapter failed.
 */
async function wrongCode(event: RequestEvent, config: ResolvedConfig, userId: string, action: string): Promise<Refusal | undefined> {
	const limits = config.rateLimits;
	try {
		if (limits) await countAttempt(limits, [[limits.twoFactorPerAccount, userId]]);
	} catch (err) {
		const refused = refusedAttempt(event, config, err, '', 'Two-factor sign-in');
		if (!refused) throw err;
		return refuse(refused.status, action, refused.data.error, refused.data.message);
	}
	if (!(await checkSecondFactor(config, userId, formText((await readForm(event.request)).get('code')) ?? ''))) {
		return refuse(400, action, 'InvalidCode', 'That code is not right, or was used already.');
	}
	await limits?.twoFactorPerAccount?.reset(userId);
	return undefined;
}

/**
 * After two-factor was turned on or off (`enabled`): this browser's session says so, and the
 * user's other sessions end unless `TwoFactor({ endOtherSessions: false })`
 * ({@link changeSessionTwoFactor}). Returns whether they ended.
 */
async function sessionsChanged(event: RequestEvent, config: ResolvedConfig, userId: string, enabled: boolean): Promise<boolean> {
	const endOthers = twoFactorOf(config)?.endOtherSessions ?? true;
	await changeSessionTwoFactor(event, config, userId, enabled, endOthers);
	return endOthers;
}

/**
 * The account page's "Set up two-factor authentication" action: a new secret for this browser
 * (sealed in a cookie on the account page's path, 10 minutes), which the page then shows as a QR
 * code and as text. Nothing is stored yet.
 * @returns `{ twoFactorSetup: true }`, or 401 `ReauthenticationRequired`.
 */
export async function startTwoFactorSetup(event: RequestEvent): Promise<{ twoFactorSetup: true } | AccountFailure> {
	const found = await changer(event, 'startTwoFactorSetup');
	if ('status' in found) return found;
	const { userId, config } = found;
	const value = await seal({ userId, secret: newTotpSecret() }, config.secrets[0]!, SETUP_SALT, SETUP_MAX_AGE, Math.floor(Date.now() / 1000));
	const { name, options } = setupCookie(event.url, config);
	event.cookies.set(name, value, { ...options, maxAge: SETUP_MAX_AGE });
	return { twoFactorSetup: true };
}

/**
 * The account page's "Turn on" action, field `code`: the app's current code for the secret of
 * this browser's setup. Then the secret (sealed) and ten new recovery codes (their hashes) are
 * stored, that code's step counted as used, the setup cookie deleted, the sessions changed
 * ({@link sessionsChanged}: this one says `user.twoFactor`, the others end) and a notice sent.
 * @returns `{ recoveryCodes, othersSignedOut }`, the codes to show once; or 400 `InvalidCode` (nothing stored),
 *   400 `SetupExpired` (no setup on this browser), 401 `ReauthenticationRequired`.
 * @throws {AdapterError} the adapter failed.
 */
export async function enableTwoFactor(event: RequestEvent): Promise<{ recoveryCodes: string[]; othersSignedOut: boolean } | Refusal | AccountFailure> {
	const found = await changer(event, 'enableTwoFactor');
	if ('status' in found) return found;
	const { userId, email, config } = found;
	const secret = await setupSecret(event, config, userId);
	if (!secret) return refuse(400, 'enableTwoFactor', 'SetupExpired', 'The setup expired. Start it again.');
	const step = matchTotp(secret, formText((await readForm(event.request)).get('code')) ?? '', Date.now());
	if (step === null) return refuse(400, 'enableTwoFactor', 'InvalidCode', 'That code is not right. Enter the one your app shows now.');
	const recoveryCodes = newRecoveryCodes();
	await need(config, 'createTwoFactor')({ userId, secret: await sealTotpSecret(secret, config), createdAt: new Date(), lastUsedStep: step }, recoveryCodes.map((code) => recoveryCodeHash(code)!));
	const { name, options } = setupCookie(event.url, config);
	event.cookies.delete(name, options);
	const othersSignedOut = await sessionsChanged(event, config, userId, true);
	sendNotice(event, config, email, 'two-factor-enabled');
	return { recoveryCodes, othersSignedOut };
}

/**
 * The account page's "New recovery codes" action, field `code`: a current code (from the app, or
 * a recovery code; limited as {@link wrongCode} says). The old codes stop working.
 * @returns `{ recoveryCodes }`, the new codes to show once; or 400 `InvalidCode`, 429, 401 `ReauthenticationRequired`.
 * @throws {AdapterError} the adapter failed.
 */
export async function regenerateRecoveryCodes(event: RequestEvent): Promise<{ recoveryCodes: string[] } | Refusal | AccountFailure> {
	const found = await changer(event, 'regenerateRecoveryCodes');
	if ('status' in found) return found;
	const { userId, email, config } = found;
	const refused = await wrongCode(event, config, userId, 'regenerateRecoveryCodes');
	if (refused) return refused;
	const recoveryCodes = newRecoveryCodes();
	await need(config, 'replaceRecoveryCodes')(userId, recoveryCodes.map((code) => recoveryCodeHash(code)!));
	sendNotice(event, config, email, 'recovery-codes-replaced');
	return { recoveryCodes };
}

/**
 * The account page's "Turn off" action, field `code`: a current code (from the app, or a
 * recovery code; limited as {@link wrongCode} says). The secret and every recovery code are
 * deleted, and the sessions changed ({@link sessionsChanged}).
 * @returns `{ twoFactorDisabled: true, othersSignedOut }`; or 400 `InvalidCode`, 429, 401 `ReauthenticationRequired`.
 * @throws {AdapterError} the adapter failed.
 */
export async function disableTwoFactor(event: RequestEvent): Promise<{ twoFactorDisabled: true; othersSignedOut: boolean } | Refusal | AccountFailure> {
	const found = await changer(event, 'disableTwoFactor');
	if ('status' in found) return found;
	const { userId, email, config } = found;
	const refused = await wrongCode(event, config, userId, 'disableTwoFactor');
	if (refused) return refused;
	await need(config, 'deleteTwoFactor')(userId);
	const othersSignedOut = await sessionsChanged(event, config, userId, false);
	sendNotice(event, config, email, 'two-factor-disabled');
	return { twoFactorDisabled: true, othersSignedOut };
}
