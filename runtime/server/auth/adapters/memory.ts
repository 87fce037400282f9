// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import type {
	Adapter,
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterTwoFactor,
	AdapterUser,
	VerificationToken
} from './types.js';

/** A copy, so that callers never hold the stored record (Dates copied too). */
const copy = <T>(record: T): T => structuredClone(record);

/** A map key made of several strings (an account's provider and id, a token's identifier and value). */
const key = (...parts: string[]) => JSON.stringify(parts);

/**
 * An adapter that keeps everything in this process's memory, for tests and demos: every method
 * of the spec's contract, the same rules as the SQL adapters (unique emails and accounts,
 * deleting a user deletes its accounts, sessions, authenticators and second factor; a verification token is
 * returned once), and nothing survives a restart. Records are copied in and out.
 * @see create-auth docs/api.md#adapter-methods
 */
export function MemoryAdapter(): Required<Adapter> {
	const users = new Map<string, AdapterUser>();
	const accounts = new Map<string, AdapterAccount>();
	const sessions = new Map<string, AdapterSession>();
	const tokens = new Map<string, VerificationToken>();
	const authenticators = new Map<string, AdapterAuthenticator>();
	const twoFactors = new Map<string, Omit<AdapterTwoFactor, 'recoveryCodes'>>();
	/** Each user's unused recovery code hashes. */
	const recoveryCodes = new Map<string, Set<string>>();

	const userWithEmail = (email: string | null) => [...users.values()].find((user) => email !== null && user.email === email);
	const removeWhere = <T>(map: Map<string, T>, drop: (value: T) => boolean) => {
		for (const [id, value] of map) if (drop(value)) map.delete(id);
	};
	const getAuthenticator = async (credentialID: string) => {
		const found = authenticators.get(credentialID);
		return found ? copy(found) : null;
	};

	return {
		async createUser(user) {
			if (users.has(user.id)) throw new Error(`createUser: a user with id ${user.id} exists`);
			if (userWithEmail(user.email ?? null)) throw new Error(`createUser: a user with email ${user.email} exists`);
			users.set(user.id, copy({ ...user, name: user.name ?? null, image: user.image ?? null, sessionVersion: user.sessionVersion ?? 0 }));
			return copy(users.get(user.id)!);
		},
		async getUser(id) {
			const user = users.get(id);
			return user ? copy(user) : null;
		},
		async getUserByEmail(email) {
			const user = userWithEmail(email);
			return user ? copy(user) : null;
		},
		async getUserByAccount({ provider, providerAccountId }) {
			const account = accounts.get(key(provider, providerAccountId));
			const user = account && users.get(account.userId);
			return user ? copy(user) : null;
		},
		async updateUser(user) {
			const current = users.get(user.id);
			if (!current) throw new Error(`updateUser: no user with id ${user.id}`);
			const other = user.email !== undefined ? userWithEmail(user.email) : undefined;
			if (other && other.id !== user.id) throw new Error(`updateUser: a user with email ${user.email} exists`);
			const defined = Object.fromEntries(Object.entries(user).filter(([, value]) => value !== undefined));
			users.set(user.id, copy({ ...current, ...defined }));
			return copy(users.get(user.id)!);
		},
		async deleteUser(userId) {
			const user = users.get(userId);
			if (!user) return null;
			users.delete(userId);
			removeWhere(accounts, (account) => account.userId === userId);
			removeWhere(sessions, (session) => session.userId === userId);
			removeWhere(authenticators, (authenticator) => authenticator.userId === userId);
			twoFactors.delete(userId);
			recoveryCodes.delete(userId);
			return user;
		},
		async linkAccount(account) {
			const accountKey = key(account.provider, account.providerAccountId);
			if (accounts.has(accountKey)) throw new Error(`linkAccount: ${account.provider} account ${account.providerAccountId} is linked already`);
			if (!users.has(account.userId)) throw new Error(`linkAccount: no user with id ${account.userId}`);
			accounts.set(accountKey, copy(account));
			return copy(account);
		},
		async unlinkAccount({ provider, providerAccountId }) {
			const accountKey = key(provider, providerAccountId);
			const account = accounts.get(accountKey);
			accounts.delete(accountKey);
			return account;
		},
		async getAccount(providerAccountId, provider) {
			const account = accounts.get(key(provider, providerAccountId));
			return account ? copy(account) : null;
		},
		async listAccountsByUserId(userId) {
			return [...accounts.values()].filter((account) => account.userId === userId).map(copy);
		},
		async createSession(session) {
			if (sessions.has(session.sessionToken)) throw new Error('createSession: the session token exists');
			if (!users.has(session.userId)) throw new Error(`createSession: no user with id ${session.userId}`);
			const { sessionToken, userId, expires, createdAt = null, userAgent = null, ipAddress = null } = session;
			const stored = { sessionToken, userId, expires, createdAt, userAgent, ipAddress };
			sessions.set(session.sessionToken, copy(stored));
			return copy(stored);
		},
		async getSessionAndUser(sessionToken) {
			const session = sessions.get(sessionToken);
			const user = session && users.get(session.userId);
			return session && user ? { session: copy(session), user: copy(user) } : null;
		},
		async updateSession(session) {
			const current = sessions.get(session.sessionToken);
			if (!current) return null;
			const defined = Object.fromEntries(Object.entries(session).filter(([, value]) => value !== undefined));
			sessions.set(session.sessionToken, copy({ ...current, ...defined }));
			return copy(sessions.get(session.sessionToken)!);
		},
		async deleteSession(sessionToken) {
			const session = sessions.get(sessionToken);
			sessions.delete(sessionToken);
			return session ?? null;
		},
		async deleteUserSessions(userId) {
			for (const [sessionToken, session] of sessions) if (session.userId === userId) sessions.delete(sessionToken);
		},
		async listSessionsByUserId(userId) {
			return [...sessions.values()].filter((session) => session.userId === userId).map(copy);
		},
		async createVerificationToken(token) {
			const stored = { identifier: token.identifier, token: token.token, expires: token.expires };
			tokens.set(key(token.identifier, token.token), copy(stored));
			return copy(stored);
		},
		async useVerificationToken({ identifier, token }) {
			const tokenKey = key(identifier, token);
			const found = tokens.get(tokenKey);
			tokens.delete(tokenKey);
			return found && found.expires.getTime() > Date.now() ? found : null;
		},
		async createAuthenticator(authenticator) {
			if (authenticators.has(authenticator.credentialID)) throw new Error('createAuthenticator: the credential id exists');
			if (!users.has(authenticator.userId)) throw new Error(`createAuthenticator: no user with id ${authenticator.userId}`);
			const { name = null, aaguid = null, createdAt = null, lastUsedAt = null } = authenticator;
			authenticators.set(authenticator.credentialID, copy({ ...authenticator, transports: authenticator.transports ?? null, name, aaguid, createdAt, lastUsedAt }));
			return (await getAuthenticator(authenticator.credentialID))!;
		},
		getAuthenticator,
		async listAuthenticatorsByUserId(userId) {
			return [...authenticators.values()].filter((authenticator) => authenticator.userId === userId).map(copy);
		},
		async deleteAuthenticator(credentialID) {
			const authenticator = authenticators.get(credentialID);
			authenticators.delete(credentialID);
			return authenticator ?? null;
		},
		async updateAuthenticator({ credentialID, name, lastUsedAt }) {
			const authenticator = authenticators.get(credentialID);
			if (!authenticator) return null;
			if (name !== undefined) authenticator.name = name;
			if (lastUsedAt !== undefined) authenticator.lastUsedAt = lastUsedAt;
			return copy(authenticator);
		},
		async updateAuthenticatorCounter(credentialID, newCounter) {
			const authenticator = authenticators.get(credentialID);
			if (!authenticator) throw new Error(`updateAuthenticatorCounter: no authenticator ${credentialID}`);
			authenticator.counter = newCounter;
			return copy(authenticator);
		},
		async getTwoFactor(userId) {
			const twoFactor = twoFactors.get(userId);
			return twoFactor ? { ...copy(twoFactor), recoveryCodes: recoveryCodes.get(userId)?.size ?? 0 } : null;
		},
		async createTwoFactor(twoFactor, recoveryCodeHashes) {
			if (!users.has(twoFactor.userId)) throw new Error(`createTwoFactor: no user with id ${twoFactor.userId}`);
			twoFactors.set(twoFactor.userId, copy({ userId: twoFactor.userId, secret: twoFactor.secret, createdAt: twoFactor.createdAt, lastUsedStep: twoFactor.lastUsedStep }));
			recoveryCodes.set(twoFactor.userId, new Set(recoveryCodeHashes));
		},
		async updateTwoFactorSecret(userId, secret) {
			const twoFactor = twoFactors.get(userId);
			if (twoFactor) twoFactor.secret = secret;
		},
		async deleteTwoFactor(userId) {
			twoFactors.delete(userId);
			recoveryCodes.delete(userId);
		},
		async useTotpStep(userId, step) {
			const twoFactor = twoFactors.get(userId);
			if (!twoFactor || (twoFactor.lastUsedStep !== null && twoFactor.lastUsedStep >= step)) return false;
			twoFactor.lastUsedStep = step;
			return true;
		},
		async replaceRecoveryCodes(userId, recoveryCodeHashes) {
			if (twoFactors.has(userId)) recoveryCodes.set(userId, new Set(recoveryCodeHashes));
		},
		async useRecoveryCode(userId, recoveryCodeHash) {
			return recoveryCodes.get(userId)?.delete(recoveryCodeHash) ?? false;
		}
	};
}
