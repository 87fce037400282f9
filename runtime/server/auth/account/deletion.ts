// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The account page's "Delete your account": after a recent sign-in and a typed confirmation, the
 * user goes with everything the adapter keeps of them.
 * @see create-auth docs/api.md#deleting-the-account
 */
import { fail, redirect, type RequestEvent } from '@sveltejs/kit';
import { adapterMethod, need } from '../adapters/methods.js';
import { MissingAdapter } from '../errors.js';
import { sendNotice } from '../email/notices.js';
import { appBase } from '../http/app-paths.js';
import { formText, readForm } from '../http/form.js';
import { requestConfig, requireUser } from '../http/guards.js';
import { currentSession, endSession } from '../session/session.js';
import { reauthenticationRequired, signedInRecently, type AccountFailure } from './recent-sign-in.js';

/** What the account page's deletion section needs. */
export interface AccountDeletion {
	/** The adapter can delete users (`deleteUser`). */
	available: boolean;
	/** What the user types to confirm: their address, else their name. */
	confirmation: string;
	/** Back from the new sign-in that the action asked for (`?resume=deleteAccount`), and it is recent. */
	resume: boolean;
}

/** What a user types to confirm deleting their account. */
const confirmationOf = (user: { email?: string | null; name?: string | null }) => user.email ?? user.name ?? 'delete my account';

/** The account page's deletion section for the signed-in user (a visitor who is not is sent to sign in). */
export async function accountDeletion(event: RequestEvent): Promise<AccountDeletion> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	const available = Boolean(config.adapter?.deleteUser);
	const resume = available && event.url.searchParams.get('resume') === 'deleteAccount' && signedInRecently(await currentSession(event, config), config);
	return { available, confirmation: confirmationOf(user), resume };
}

/**
 * The account page's "Delete your account" action (form field `confirm`: the user's address, or
 * their name without one, any case). Needs a sign-in within `session.freshAge` (401
 * `ReauthenticationRequired`, with the URL that comes back to resume it) and the confirmation
 * (400 `ConfirmationMismatch`); nothing is deleted otherwise. Then:
 * 1. the user's sessions are deleted (`deleteUserSessions`, where the adapter has it; `jwt`
 *    sessions elsewhere end at their next revalidation, their user gone);
 * 2. the user is deleted (`deleteUser`): create-auth's SQL adapters delete their accounts
 *    (password, OAuth, passkeys' `webauthn` accounts), sessions and passkeys in the same statement
 *    (foreign keys with ON DELETE CASCADE), the memory and `hosted-db` adapters one by one;
 * 3. a notice goes to the address, this browser's cookie is deleted, and a 303 goes to the app's home.
 * An adapter without `deleteUser` is a 501 `Unsupported`, logged as {@link MissingAdapter}.
 * @throws SvelteKit's redirect (303 to `<base>/`) once deleted.
 * @throws {AdapterError} the adapter failed.
 */
export async function deleteAccount(event: RequestEvent): Promise<AccountFailure> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	if (!config.adapter?.deleteUser || !user.id) {
		config.logger.error(new MissingAdapter('Deleting an account needs an adapter with deleteUser().'));
		return fail(501, { action: 'deleteAccount', error: 'Unsupported', message: 'Deleting your account is not available on this site.' });
	}
	if (!signedInRecently(await currentSession(event, config), config)) return reauthenticationRequired(event, config, { action: 'deleteAccount' });
	const typed = (formText((await readForm(event.request)).get('confirm')) ?? '').trim().toLowerCase();
	if (typed !== confirmationOf(user).toLowerCase()) {
		return fail(400, { action: 'deleteAccount', error: 'ConfirmationMismatch', message: `Type ${confirmationOf(user)} to confirm.` });
	}
	config.sessionCache?.deleteUser(user.id);
	await adapterMethod(config.adapter, 'deleteUserSessions')?.(user.id);
	await need(config, 'deleteUser')(user.id);
	sendNotice(event, config, user.email, 'account-deleted');
	await endSession(event, config);
	redirect(303, `${appBase(event.url, config)}/`);
}
