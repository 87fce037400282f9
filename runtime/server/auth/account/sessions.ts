// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The account page's sessions: where the user is signed in, and ending them (OWASP ASVS 5.0
 * 7.5.2). Each function finds the config through the request, like the guards.
 * @see create-auth docs/api.md#ending-sessions
 */
import { createHash } from 'node:crypto';
import { fail, type RequestEvent } from '@sveltejs/kit';
import type { AdapterSession } from '../adapters/types.js';
import type { ResolvedConfig } from '../config.js';
import { MissingAdapter } from '../errors.js';
import { clientAddress, formText, readForm } from '../http/form.js';
import { requestConfig, requireSession, requireUser, type SignedInSession } from '../http/guards.js';
import { need } from '../adapters/methods.js';
import { currentSession, endOtherSessions, type CurrentSession } from '../session/session.js';
import { deviceOf, type Device } from './devices.js';
import { reauthenticateUrl, reauthenticationRequired, signedInRecently, type AccountFailure } from './recent-sign-in.js';

/** One place the user is signed in, as the account page lists it. Dates are ISO 8601 strings (they cross to the browser as JSON); null when unknown. */
export interface AccountSession {
	/** An opaque id for {@link revokeSession}'s form: a hash of the row's key, which never leaves the server. */
	id: string;
	/** This browser's session. */
	current: boolean;
	/** When the user signed in there. */
	signedInAt: string | null;
	/**
	 * When the session was last extended (`expires` − `maxAge`): its last request, to within
	 * `session.updateAge`; null while it has not been extended since the sign-in.
	 */
	lastActiveAt: string | null;
	/** The browser and system of the sign-in's `User-Agent`. */
	device: Device;
	/** The client address the sign-in came from, as the server saw it. */
	ipAddress: string | null;
	expires: string;
}

/** What the account page's sessions section shows. */
export interface AccountSessions {
	/**
	 * `database` strategy: every unexpired session of the user, this one first, then the most
	 * recently signed in. `jwt` strategy: this browser's alone (the others are cookies the server
	 * does not keep).
	 */
	sessions: AccountSession[];
	/** Whether "End all other sessions" can work here: `database` with `listSessionsByUserId`, or `jwt` with an adapter that stores `sessionVersion`. */
	canEndOthers: boolean;
	/** Whether the sign-in is within `session.freshAge`, so ending sessions needs no new sign-in. */
	recentSignIn: boolean;
	/** The sign-in page's URL that comes back here ({@link reauthenticateUrl}). */
	reauthenticate: string;
	/**
	 * Back from the new sign-in that an action asked for (the page's `?resume=`, see
	 * `reauthenticationRequired`), and it is recent: the action to offer again, with the session it
	 * names. Absent otherwise, or when that session has ended since.
	 */
	resume?: { action: 'revokeOtherSessions' } | { action: 'revokeSession'; session: AccountSession };
}

/** What the account page shows after ending sessions. */
export type SessionsEnded = { sessionsEnded: number | 'others' };

/** The id the page shows for a session row's key. */
const publicId = (storedKey: string) => createHash('sha256').update(`account-session:${storedKey}`).digest('base64url').slice(0, 22);

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/**
 * The signed-in user's sessions for the account page ({@link requireSession}: a visitor who is
 * not signed in is sent to sign in).
 * @throws {AdapterError} the adapter failed.
 */
export async function listSessions(event: RequestEvent): Promise<AccountSessions> {
	const session = await requireSession(event);
	const { user } = session;
	const config = await requestConfig(event);
	const current = await currentSession(event, config);
	const recentSignIn = signedInRecently(current, config);
	const reauthenticate = reauthenticateUrl(event, config);
	let listed: Omit<AccountSessions, 'recentSignIn' | 'reauthenticate'>;
	if (config.strategy === 'database' && config.adapter?.listSessionsByUserId) {
		const now = Date.now();
		const rows = (await need(config, 'listSessionsByUserId')(user.id!)).filter((row) => row.expires.getTime() > now);
		const sessions = await Promise.all(rows.map((row) => accountSession(row, row.sessionToken === current?.storedKey, config)));
		sessions.sort((a, b) => Number(b.current) - Number(a.current) || (b.signedInAt ?? '').localeCompare(a.signedInAt ?? ''));
		listed = { sessions, canEndOthers: true };
	} else {
		listed = { sessions: [await thisBrowser(event, session, current)], canEndOthers: await jwtSessionsEnd(config, user.id) };
	}
	const resume = recentSignIn ? resumed(event.url, listed) : undefined;
	return { ...listed, recentSignIn, reauthenticate, ...(resume ? { resume } : {}) };
}

/** The action `url`'s `?resume=` names, when it can run on what is `listed`. */
function resumed(url: URL, listed: Pick<AccountSessions, 'sessions' | 'canEndOthers'>): AccountSessions['resume'] {
	const action = url.searchParams.get('resume');
	if (action === 'revokeOtherSessions' && listed.canEndOthers) return { action };
	const session = listed.sessions.find((candidate) => !candidate.current && candidate.id === url.searchParams.get('session'));
	return action === 'revokeSession' && session ? { action, session } : undefined;
}

async function accountSession(row: AdapterSession, current: boolean, config: ResolvedConfig): Promise<AccountSession> {
	const extended = row.expires.getTime() - config.maxAge * 1000;
	const created = row.createdAt?.getTime();
	return {
		id: publicId(row.sessionToken),
		current,
		signedInAt: iso(row.createdAt),
		lastActiveAt: created === undefined || extended > created ? new Date(extended).toISOString() : null,
		device: await deviceOf(row.userAgent),
		ipAddress: row.ipAddress ?? null,
		expires: row.expires.toISOString()
	};
}

/** The `jwt` strategy's one listed session: this browser's, with this request's details. */
async function thisBrowser(event: RequestEvent, session: SignedInSession, current: CurrentSession | null): Promise<AccountSession> {
	const ipAddress = clientAddress(event) ?? null;
	const signedInAt = current?.authTime === undefined ? null : new Date(current.authTime * 1000).toISOString();
	return { id: 'current', current: true, signedInAt, lastActiveAt: new Date().toISOString(), device: await deviceOf(event.request.headers.get('user-agent')), ipAddress, expires: session.expires };
}

/** Whether a `jwt` session of `userId` can be ended from elsewhere: the adapter's user record carries `sessionVersion`. */
async function jwtSessionsEnd(config: ResolvedConfig, userId: string | undefined): Promise<boolean> {
	if (!config.adapter?.getUser || !config.adapter.updateUser || !userId) return false;
	const user = await need(config, 'getUser')(userId);
	return typeof user?.sessionVersion === 'number';
}

/**
 * The account page's "sign out" of one other session (form field `session`: an
 * {@link AccountSession} id), `database` strategy. Needs a sign-in within `session.freshAge`
 * (401 `ReauthenticationRequired`, with the URL that signs in and comes back to resume it). A
 * session that is not the signed-in user's, this browser's own (signing out does that), or
 * unknown is a 404 `UnknownSession`, and nothing is ended.
 * @throws {AdapterError} the adapter failed.
 */
export async function revokeSession(event: RequestEvent): Promise<SessionsEnded | AccountFailure> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	const form = await readForm(event.request);
	const id = formText(form.get('session')) ?? '';
	const current = await currentSession(event, config);
	if (!signedInRecently(current, config)) return reauthenticationRequired(event, config, { action: 'revokeSession', params: { session: id } });
	const list = config.strategy === 'database' ? config.adapter?.listSessionsByUserId : undefined;
	const rows = list ? await need(config, 'listSessionsByUserId')(user.id!) : [];
	const row = rows.find((candidate) => publicId(candidate.sessionToken) === id && candidate.sessionToken !== current?.storedKey);
	if (!row) return fail(404, { action: 'revokeSession', error: 'UnknownSession', message: 'That session has ended already, or is not one of yours.' });
	await need(config, 'deleteSession')(row.sessionToken);
	config.sessionCache?.deleteUser(user.id!);
	return { sessionsEnded: 1 };
}

/**
 * The account page's "End all other sessions": every session of the user but this browser's
 * ends ({@link endOtherSessions}: at once with `database` sessions, within
 * `session.revalidateAge` seconds with `jwt` ones). Needs a sign-in within `session.freshAge`
 * (401 `ReauthenticationRequired`). An adapter that cannot (no `listSessionsByUserId`; users
 * without `sessionVersion`) is a 501 `Unsupported`, logged as {@link MissingAdapter}.
 * @throws {AdapterError} the adapter failed.
 */
export async function revokeOtherSessions(event: RequestEvent): Promise<SessionsEnded | AccountFailure> {
	const user = await requireUser(event);
	const config = await requestConfig(event);
	if (!signedInRecently(await currentSession(event, config), config)) return reauthenticationRequired(event, config, { action: 'revokeOtherSessions' });
	try {
		await endOtherSessions(event, config, user.id!);
	} catch (err) {
		if (!(err instanceof MissingAdapter)) throw err;
		config.logger.error(err);
		return fail(501, { action: 'revokeOtherSessions', error: 'Unsupported', message: 'Signing out other devices is not available on this site.' });
	}
	return { sessionsEnded: 'others' };
}
