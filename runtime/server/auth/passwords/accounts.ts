// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { randomUUID } from 'node:crypto';
import type { User } from '../../../auth/types.js';
import { adapterMethod } from '../adapters/methods.js';
import type { Adapter, AdapterAccount, AdapterUser } from '../adapters/types.js';
import type { Logger } from '../config.js';
import { isEmail, normalizeEmail } from '../email/address.js';
import { AdapterError } from '../errors.js';
import { toUser } from '../session/session.js';
import { PASSWORD_MAX_LENGTH } from '../config.js';
import { DUMMY_HASH } from './cost.js';
import { isForeignPasswordHash } from './foreign.js';
import { hashPassword, isOwnPasswordHash, verifyPassword } from './hashing.js';
import { checkNewPassword, type PasswordErrorCode, type PasswordPolicyConfig } from './policy.js';
import { adoptPreviousUser, type AdoptingAdapter, type PreviousAuthorize } from './previous.js';
import { PASSWORD_PROVIDER } from './provider.js';

export { PASSWORD_PROVIDER, passwordAccount } from './provider.js';

/**
 * Why {@link registerWithPassword} refused; stable values for the sign-up page. `Unavailable`:
 * the adapter failed (the store is down), a 503 for the page; the others are the visitor's
 * input, a 400.
 */
export type RegisterErrorCode = 'InvalidEmail' | PasswordErrorCode | 'EmailInUse' | 'Unavailable';

/** Result of {@link registerWithPassword}. `message` is safe to show to the user. */
export type RegisterResult =
	| { ok: true; user: AdapterUser }
	| { ok: false; code: RegisterErrorCode; message: string };

/** The adapter methods that sign-up needs. */
export type RegisterAdapter = Required<Pick<Adapter, 'getUserByEmail' | 'createUser' | 'linkAccount'>> &
	Pick<Adapter, 'deleteUser'>;

/**
 * The adapter methods that password sign-in needs; with `unlinkAccount` and `linkAccount` too,
 * a hash of another library (Better Auth, Lucia) is replaced with ours at the sign-in; with
 * `getUserByEmail`, `createUser` and `linkAccount`, a user of {@link AuthorizeOptions.previous} is kept.
 */
export type AuthorizeAdapter = Required<Pick<Adapter, 'getAccount' | 'getUser'>> & Pick<Adapter, 'unlinkAccount' | 'linkAccount'> & AdoptingAdapter;

/** Options of {@link authorizeWithPassword}. */
export interface AuthorizeOptions {
	/**
	 * The app's `authorize` from before create-auth (carried by `create-auth switch` from
	 * Auth.js), asked for an address with no create-auth password account; a user it returns is
	 * stored with our hash of the password (`adoptPreviousUser` in `previous.ts`).
	 */
	previous: PreviousAuthorize;
	/** The sign-in request, handed to `previous` (the provider's `authorize` gets it second). */
	request: Request;
}

const refuse = (code: RegisterErrorCode, message: string): RegisterResult => ({ ok: false, code, message });

/**
 * Creates a user and a `credentials` account holding the password hash. Inputs are raw form
 * values (`FormDataEntryValue | null`). Email is trimmed and lowercased; the password must pass
 * `checkNewPassword` (`policy.ts`) with `config` (its length, blocklist, context words with this
 * address and `url`'s host, breach check), or its code is returned. If linking the account
 * fails, the new user is deleted again when the adapter can.
 * Bad input is `{ ok: false, code }`, and so is a failing adapter (`Unavailable`, the
 * {@link AdapterError} naming the method logged with `console.error`).
 * @throws {RateLimited} the password-hashing queue is full.
 * @throws {DriverUnavailable} the adapter's driver cannot load on this server.
 * @throws {Error} the password blocklist cannot be read.
 */
export async function registerWithPassword(
	adapter: RegisterAdapter,
	input: { email: unknown; password: unknown },
	config: PasswordPolicyConfig,
	url?: URL
): Promise<RegisterResult> {
	try {
		return await register(adapter, input, config, url);
	} catch (err) {
		if (!(err instanceof AdapterError)) throw err;
		console.error(err);
		return refuse('Unavailable', 'Sign-up is unavailable for a moment. Please try again shortly.');
	}
}

async function register(store: RegisterAdapter, input: { email: unknown; password: unknown }, config: PasswordPolicyConfig, url: URL | undefined): Promise<RegisterResult> {
	const adapter = {
		getUserByEmail: adapterMethod(store, 'getUserByEmail')!,
		createUser: adapterMethod(store, 'createUser')!,
		linkAccount: adapterMethod(store, 'linkAccount')!,
		deleteUser: adapterMethod(store, 'deleteUser')
	};
	const email = typeof input.email === 'string' ? normalizeEmail(input.email) : '';
	if (!isEmail(email)) return refuse('InvalidEmail', 'Enter a valid email address.');
	const checked = await checkNewPassword(input.password, config, { email, url });
	if (!checked.ok) return checked;
	const { password } = checked;
	const emailInUse = () => refuse('EmailInUse', 'An account with this email already exists.');
	if (await adapter.getUserByEmail(email)) return emailInUse();

	const password_hash = await hashPassword(password);
	let user: AdapterUser;
	try {
		user = await adapter.createUser({ id: randomUUID(), email, emailVerified: null, name: null, image: null });
	} catch (err) {
		// Lost a race with a concurrent sign-up for the same email (unique constraint).
		if (await adapter.getUserByEmail(email)) return emailInUse();
		throw err;
	}
	try {
		await adapter.linkAccount({ userId: user.id, type: PASSWORD_PROVIDER, provider: PASSWORD_PROVIDER, providerAccountId: email, password_hash });
	} catch (err) {
		await adapter.deleteUser?.(user.id);
		throw err;
	}
	return { ok: true, user };
}

/**
 * The `authorize` of a Credentials provider backed by {@link registerWithPassword}'s accounts.
 * Returns `{ id, email, name, image }` or null; null never says whether the email or the
 * password was wrong, and takes as long either way (a dummy hash is checked when there is
 * no account, and after a failed check of a hash that is not ours, so that every refusal
 * costs at least one of our scrypt hashes). A password over 1024 characters (code points after
 * NFKC) is null at once, never hashed.
 *
 * A hash of another library (Better Auth's scrypt, Lucia's argon2: `verifyPassword` in
 * `hashing.ts`) that the password matches is replaced with ours ({@link hashPassword}, stored
 * by {@link replacePasswordHash}) before the user is returned, so it is verified once in its old
 * format. When the adapter lacks `unlinkAccount` or `linkAccount`, or the rehash fails (the
 * queue is full, the adapter fails: logged with `console.error`), the sign-in still succeeds
 * and the old hash stays, for the next sign-in to try again.
 *
 * With `options` (an app switched from Auth.js's Credentials), an address that has no
 * password account here is checked by the app's old `authorize`, and the user it returns is
 * kept with our hash ({@link adoptPreviousUser}: refused when create-auth has another user at
 * that address). An address that has one is never checked by the old `authorize`.
 * @throws {RateLimited} the password-hashing queue is full.
 * @throws {AdapterError} naming the method, when the adapter fails (the store is down): the
 *   sign-in then ends on `?error=AdapterError`, "unavailable for a moment", not a failed sign-in
 */
export async function authorizeWithPassword(
	store: AuthorizeAdapter,
	credentials: Partial<Record<string, unknown>>,
	options?: AuthorizeOptions
): Promise<User | null> {
	const adapter = { getAccount: adapterMethod(store, 'getAccount')!, getUser: adapterMethod(store, 'getUser')! };
	const email = typeof credentials.email === 'string' ? normalizeEmail(credentials.email) : '';
	const password = typeof credentials.password === 'string' ? credentials.password : '';
	if (password.length > PASSWORD_MAX_LENGTH * 4 || [...password.normalize('NFKC')].length > PASSWORD_MAX_LENGTH) return null;
	const account = email ? await adapter.getAccount(email, PASSWORD_PROVIDER) : null;
	const hash = typeof account?.password_hash === 'string' ? account.password_hash : DUMMY_HASH;
	const valid = (await verifyPassword(password, hash)) && account !== null && hash !== DUMMY_HASH;
	// A foreign hash is cheaper than ours to check, and a removed password ('') costs nothing:
	// a refusal costs one of ours on top, so it takes no less time than for an unknown address.
	if (!valid && !isOwnPasswordHash(hash)) await verifyPassword(password, DUMMY_HASH);
	if (!account && email && options) return adoptPreviousUser(store, options.previous, credentials, options.request, email, password);
	const user = valid ? await adapter.getUser(account.userId) : null;
	if (user && account && isForeignPasswordHash(hash)) await rehash(store, account, password);
	return user && toUser(user);
}

/** Replaces the foreign hash of `account` with ours of `password`; a failure is logged, never thrown, and leaves the old hash. */
async function rehash(store: AuthorizeAdapter, account: AdapterAccount, password: string): Promise<void> {
	const unlinkAccount = adapterMethod(store, 'unlinkAccount');
	const linkAccount = adapterMethod(store, 'linkAccount');
	if (!unlinkAccount || !linkAccount) return;
	const logger: Pick<Logger, 'error'> = { error: (error) => console.error(error) };
	try {
		await replacePasswordHash({ unlinkAccount, linkAccount }, account, await hashPassword(password), logger);
	} catch (err) {
		// The password was right: the sign-in goes on, and the next one tries again.
		const failed = `Replacing the password hash of ${account.providerAccountId} with ours failed; the old one stays.`;
		logger.error(err instanceof AdapterError ? new AdapterError(failed, { err }) : (err as Error));
	}
}

/** The adapter methods {@link replacePasswordHash} calls, as `adapterMethod` or `need` return them. */
export interface HashReplacingAdapter {
	unlinkAccount(account: Pick<AdapterAccount, 'provider' | 'providerAccountId'>): Promise<unknown>;
	linkAccount(account: AdapterAccount): Promise<unknown>;
}

/**
 * Stores a new password hash on a `credentials` account. The adapter contract has no method to
 * update an account, so it is unlinked and linked again with `password_hash` (every other field
 * kept); if linking fails, the old account is linked back, so the password is never lost (a
 * failure to link it back is given to `logger.error` as an {@link AdapterError}).
 * @throws {AdapterError} unlinking or linking failed (from adapter methods wrapped by
 *   `adapterMethod` or `need`), after the old account is linked back.
 */
export async function replacePasswordHash(adapter: HashReplacingAdapter, account: AdapterAccount, password_hash: string, logger: Pick<Logger, 'error'>): Promise<void> {
	await replaceAccount(adapter, account, { password_hash }, logger);
}

/**
 * Changes fields of an account (the contract has no account update): unlinked, then linked again
 * with `changes` (a new `password_hash`, a new `providerAccountId` when the address it is keyed by
 * changed); when linking fails, the old one is linked back (a failure of that is logged as
 * {@link AdapterError}) and the error rethrown.
 */
export async function replaceAccount(adapter: HashReplacingAdapter, account: AdapterAccount, changes: Partial<AdapterAccount>, logger: Pick<Logger, 'error'>): Promise<void> {
	const { provider, providerAccountId } = account;
	await adapter.unlinkAccount({ provider, providerAccountId });
	try {
		await adapter.linkAccount({ ...account, ...changes });
	} catch (err) {
		await adapter.linkAccount(account).catch((restore: unknown) =>
			logger.error(new AdapterError(`Linking the old password account of ${providerAccountId} back failed.`, { err: restore as Error }))
		);
		throw err;
	}
}
