// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The account page's sign-in methods: how the user signs in (a password, passkeys, linked OAuth
 * accounts, email links), gathered from each configured provider's flow (`flow.account`, see
 * `AccountMethods`), removed or renamed through it. Never the last one (it would lock the user
 * out), and removing needs a recent sign-in (OWASP ASVS 5.0 7.5.1).
 * @see create-auth docs/api.md#sign-in-methods
 */
import { fail, type RequestEvent } from '@sveltejs/kit';
import { need } from '../adapters/methods.js';
import type { AdapterUser } from '../adapters/types.js';
import type { ProviderConfig, ResolvedConfig, SignInMethod } from '../config.js';
import { MissingAdapter } from '../errors.js';
import { formText, readForm } from '../http/form.js';
import { requestConfig, requireUser } from '../http/guards.js';
import { currentSession } from '../session/session.js';
import { reauthenticateUrl, reauthenticationRequired, signedInRecently, type AccountFailure } from './recent-sign-in.js';

/** What the account page's sign-in methods section shows. */
export interface SignInMethods {
	/** Every way the user signs in, in the order of the config's providers. */
	methods: SignInMethod[];
	/** "Set a password" may be offered: a provider offers it and the user has an address and no password. */
	canSetPassword: boolean;
	/** Providers the user may link an account of (signing in with them while signed in), none linked yet: id and name. */
	linkable: { id: string; name: string }[];
	/** Whether the sign-in is within `session.freshAge`, so removing needs no new sign-in. */
	recentSignIn: boolean;
	/** The sign-in page's URL that comes back here. */
	reauthenticate: string;
	/** Back from the new sign-in that an action asked for (`?resume=`), and it is recent: the action to offer again. */
	resume?: { action: 'removeSignInMethod'; method: SignInMethod } | { action: 'setPassword' };
}

/** What the account page shows after a removal: the method that went (a passkey's has what the Signal API call needs). */
export type SignInMethodRemoved = { removed: SignInMethod };

/** What the account page shows after a rename. */
export type SignInMethodRenamed = { renamed: SignInMethod };

/** The longest name a sign-in method may be given, in characters. */
const NAME_MAX = 64;

/** The adapter's record of the signed-in user (the flows list from it). Null when it is gone. */
async function storedUser(event: RequestEvent, config: ResolvedConfig): Promise<AdapterUser | null> {
	const user = await requireUser(event);
	return user.id ? need(config, 'getUser')(user.id) : null;
}

/**
 * Every method of `user` through every configured provider that lists them. `complete` is false
 * when a flow could not list (its adapter lacks a method: logged as {@link MissingAdapter}); then
 * nothing may be removed, since the last method cannot be told.
 * @throws {AdapterError} the adapter failed.
 */
async function methodsOf(user: AdapterUser, config: ResolvedConfig, url: URL): Promise<{ methods: SignInMethod[]; complete: boolean }> {
	const methods: SignInMethod[] = [];
	let complete = true;
	for (const provider of config.providers) {
		try {
			methods.push(...((await provider.flow?.account?.list(user, config, provider, url)) ?? []));
		} catch (err) {
			if (!(err instanceof MissingAdapter)) throw err;
			config.logger.error(err);
			complete = false;
		}
	}
	return { methods, complete };
}

/**
 * The signed-in user's sign-in methods for the account page (a visitor who is not signed in is
 * sent to sign in; one whose user record is gone reads no methods).
 * @throws {AdapterError} the adapter failed.
 */
export async function listSignInMethods(event: RequestEvent): Promise<SignInMethods> {
	const config = await requestConfig(event);
	const user = await storedUser(event, config);
	const recentSignIn = signedInRecently(await currentSession(event, config), config);
	const reauthenticate = reauthenticateUrl(event, config);
	if (!user) return { methods: [], canSetPassword: false, linkable: [], recentSignIn, reauthenticate };
	const { methods } = await methodsOf(user, config, event.url);
	const has = (provider: ProviderConfig) => methods.some((method) => method.provider === provider.id);
	const canSetPassword = Boolean(user.email) && !methods.some((method) => method.kind === 'password') && config.providers.some((provider) => provider.flow?.actions?.setPassword);
	const linkable = config.providers.filter((provider) => provider.flow?.account?.linkable && !has(provider)).map(({ id, name }) => ({ id, name }));
	const listed: SignInMethods = { methods, canSetPassword, linkable, recentSignIn, reauthenticate };
	if (!recentSignIn) return listed;
	const action = event.url.searchParams.get('resume');
	const method = methods.find((candidate) => candidate.removable && candidate.provider === event.url.searchParams.get('provider') && candidate.id === event.url.searchParams.get('method'));
	if (action === 'removeSignInMethod' && method && methods.length > 1) listed.resume = { action, method };
	if (action === 'setPassword' && canSetPassword) listed.resume = { action };
	return listed;
}

/**
 * The account page's "Remove" of a sign-in method (form fields `provider`, its id, and `method`,
 * the {@link SignInMethod} id): a passkey, a linked OAuth account. Needs a sign-in within
 * `session.freshAge` (401 `ReauthenticationRequired`, with the URL that comes back to resume it).
 * A method that is not the user's, not removable or unknown is a 404 `UnknownSignInMethod`; the
 * user's only method is a 409 `LastSignInMethod`, and so is any when a provider could not list
 * its methods (the last one cannot be told); nothing is removed.
 * @returns `{ removed }`: the method that went, for the page to say so (and, for a passkey, to tell
 *   the password manager through the WebAuthn Signal API)
 * @throws {AdapterError} the adapter failed.
 */
export async function removeSignInMethod(event: RequestEvent): Promise<SignInMethodRemoved | AccountFailure> {
	const config = await requestConfig(event);
	const user = await storedUser(event, config);
	const form = await readForm(event.request);
	const [provider, id] = [formText(form.get('provider')) ?? '', formText(form.get('method')) ?? ''];
	if (!signedInRecently(await currentSession(event, config), config)) {
		return reauthenticationRequired(event, config, { action: 'removeSignInMethod', params: { provider, method: id } });
	}
	const unknown = () => fail(404, { action: 'removeSignInMethod', error: 'UnknownSignInMethod', message: 'That sign-in method is gone already, or cannot be removed here.' });
	if (!user) return unknown();
	const { methods, complete } = await methodsOf(user, config, event.url);
	const target = methods.find((method) => method.provider === provider && method.id === id && method.removable);
	const providerConfig = config.providers.find((candidate) => candidate.id === provider);
	const remove = providerConfig?.flow?.account?.remove;
	if (!target || !providerConfig || !remove) return unknown();
	if (methods.length <= 1 || !complete) {
		return fail(409, { action: 'removeSignInMethod', error: 'LastSignInMethod', message: 'This is your only way to sign in. Add another before you remove it.' });
	}
	if (!(await remove(user, config, providerConfig, id))) return unknown();
	return { removed: target };
}

/**
 * The account page's "Rename" of a sign-in method (form fields `provider`, `method`, `name`): a
 * passkey. The name is trimmed, 1 to 64 characters (400 `InvalidName`). A method that is not the
 * user's or cannot be renamed is a 404 `UnknownSignInMethod`. A rename changes no way of signing
 * in, so it needs no recent sign-in.
 * @throws {AdapterError} the adapter failed.
 */
export async function renameSignInMethod(event: RequestEvent): Promise<SignInMethodRenamed | AccountFailure> {
	const config = await requestConfig(event);
	const user = await storedUser(event, config);
	const form = await readForm(event.request);
	const [provider, id] = [formText(form.get('provider')) ?? '', formText(form.get('method')) ?? ''];
	const name = (formText(form.get('name')) ?? '').trim();
	if (!name || name.length > NAME_MAX) return fail(400, { action: 'renameSignInMethod', error: 'InvalidName', message: `Give it a name of 1 to ${NAME_MAX} characters.` });
	const unknown = () => fail(404, { action: 'renameSignInMethod', error: 'UnknownSignInMethod', message: 'That sign-in method is gone, or cannot be renamed.' });
	const providerConfig = config.providers.find((candidate) => candidate.id === provider);
	const rename = providerConfig?.flow?.account?.rename;
	if (!user || !providerConfig || !rename) return unknown();
	const target = (await providerConfig.flow.account!.list(user, config, providerConfig, event.url)).find((method) => method.id === id && method.renamable);
	if (!target || !(await rename(user, config, providerConfig, id, name))) return unknown();
	return { renamed: { ...target, label: name } };
}
