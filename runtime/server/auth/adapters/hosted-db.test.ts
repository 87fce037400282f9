import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { startRecordApi, type RecordApi } from '../../../test/record-api.js';
import { HostedDbAdapter, HostedDbClient, HostedDbError, type HostedDbAdapterMethods } from './hosted-db.js';

/** The spec's methods but the four authenticator ones: the hosted schema has no authenticator table. */
const METHODS = [
	'createUser', 'getUser', 'getUserByEmail', 'getUserByAccount', 'updateUser', 'deleteUser', 'linkAccount',
	'unlinkAccount', 'getAccount', 'createSession', 'getSessionAndUser', 'updateSession', 'deleteSession',
	'createVerificationToken', 'useVerificationToken'
] as const;

const clientOf = ({ databaseURL, branch, apiKey }: RecordApi) => new HostedDbClient({ databaseURL, branch, apiKey });

describeAdapterContract(
	'HostedDbAdapter',
	async () => {
		const api = await startRecordApi();
		const inspector = clientOf(api);
		return {
			adapter: HostedDbAdapter(clientOf(api)),
			twin: () => HostedDbAdapter(clientOf(api)),
			userCount: async () => (await inspector.db.authlib_users.filter({}).getMany({ size: 200 })).length,
			close: () => api.stop()
		};
	},
	{ methods: METHODS }
);

describe('HostedDbClient', () => {
	let api: RecordApi;
	let stopped = false;
	beforeEach(async () => {
		api = await startRecordApi();
		stopped = false;
	});
	afterEach(async () => {
		if (!stopped) await api.stop();
	});

	it('tells its branch and database URL, the branch main unless given', async () => {
		expect(await clientOf(api).getConfig()).toEqual({ branch: 'main', databaseURL: api.databaseURL });
		expect(await new HostedDbClient({ databaseURL: 'https://db.example.com/db/app' }).getConfig()).toEqual({
			branch: 'main',
			databaseURL: 'https://db.example.com/db/app'
		});
		expect(await new HostedDbClient({ databaseURL: 'https://db.example.com/db/app', branch: 'preview' }).getConfig()).toMatchObject({ branch: 'preview' });
	});

	it('rejects every call without a database URL, never throwing synchronously', async () => {
		const client = new HostedDbClient();
		await expect(client.getConfig()).rejects.toBeInstanceOf(HostedDbError);
		await expect(client.db.authlib_users.read('u1')).rejects.toThrow(/databaseURL is not set/);
	});

	it('rejects a wrong API key with status 401', async () => {
		const client = new HostedDbClient({ databaseURL: api.databaseURL, apiKey: 'wrong' });
		await expect(client.db.authlib_users.read('u1')).rejects.toMatchObject({ name: 'HostedDbError', status: 401, code: 'UNAUTHORIZED' });
		await expect(HostedDbAdapter(client).getUser('u1')).rejects.toMatchObject({ status: 401 });
	});

	it('rejects calls to a server that is down, with no status and the network error as cause', async () => {
		const client = clientOf(api);
		await client.db.authlib_users.create({ id: 'u1', email: 'a@example.com' });
		await api.stop();
		stopped = true;
		let pending: unknown;
		expect(() => (pending = HostedDbAdapter(client).getUser('u1'))).not.toThrow();
		const error = await Promise.resolve(pending).then(() => undefined, (reason: unknown) => reason);
		expect(error).toBeInstanceOf(HostedDbError);
		expect(error).toMatchObject({ status: undefined });
		expect((error as Error).cause).toBeDefined();
	});

	it('sends dates as ISO strings through the injected fetch and reads them back as Date', async () => {
		const bodies: unknown[] = [];
		const client = new HostedDbClient({
			...(await clientOf(api).getConfig()),
			apiKey: api.apiKey,
			fetch: (input, init) => {
				if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body));
				return fetch(input, init);
			}
		});
		const emailVerified = new Date('2030-01-02T03:04:05.678Z');
		const created = await client.db.authlib_users.create({ id: 'u1', email: 'a@example.com', emailVerified });
		expect(bodies).toEqual([{ id: 'u1', email: 'a@example.com', emailVerified: '2030-01-02T03:04:05.678Z' }]);
		expect(created.emailVerified).toEqual(emailVerified);
		expect((await client.db.authlib_users.filter({ emailVerified }).getFirst())?.emailVerified).toEqual(emailVerified);
	});

	it('answers null for a record that is absent, and 409 for a duplicate id or email', async () => {
		const users = clientOf(api).db.authlib_users;
		expect(await users.read('nobody')).toBeNull();
		expect(await users.update('nobody', { name: 'x' })).toBeNull();
		expect(await users.delete('nobody')).toBeNull();
		await users.create({ id: 'u1', email: 'a@example.com' });
		await expect(users.create({ id: 'u1' })).rejects.toMatchObject({ status: 409 });
		await expect(users.create({ id: 'u2', email: 'a@example.com' })).rejects.toMatchObject({ status: 409 });
		expect(await users.delete('u1')).toMatchObject({ id: 'u1', email: 'a@example.com' });
		expect(await users.delete('u1')).toBeNull();
	});

	it('never widens a filter for an undefined value: it matches an absent one', async () => {
		const users = clientOf(api).db.authlib_users;
		await users.create({ id: 'u1', email: 'a@example.com' });
		await users.create({ id: 'u2' });
		expect((await users.filter({ email: undefined }).getMany()).map((user) => user.id)).toEqual(['u2']);
	});

	it('inserts all records of a transaction or none', async () => {
		const client = clientOf(api);
		await client.db.authlib_users.create({ id: 'u1' });
		await expect(
			client.transactions.run([
				{ insert: { table: 'authlib_sessions', record: { id: 's1', sessionToken: 't', user: 'u1' } } },
				{ insert: { table: 'authlib_users_sessions', record: { id: 's1', user: 'no-such-user', session: 's1' } } }
			])
		).rejects.toMatchObject({ status: 400 });
		expect(await client.db.authlib_sessions.read('s1')).toBeNull();
	});
});

describe('HostedDbAdapter', () => {
	let api: RecordApi;
	let client: HostedDbClient;
	let adapter: HostedDbAdapterMethods;
	const user = (id: string) => ({ id, email: `${id}@example.com`, emailVerified: null, name: null, image: null });
	const expires = () => new Date(Date.now() + 3_600_000);
	/** The link tables' rows, as ids, read through the record API. */
	const accountRows = async () =>
		(await client.db.authlib_users_accounts.filter({}).getMany({ size: 200 })).map((row) => ({ id: row.id, user: row.user?.id, account: row.account?.id }));
	const sessionRows = async () =>
		(await client.db.authlib_users_sessions.filter({}).getMany({ size: 200 })).map((row) => ({ id: row.id, user: row.user?.id, session: row.session?.id }));
	beforeEach(async () => {
		api = await startRecordApi();
		client = clientOf(api);
		adapter = HostedDbAdapter(clientOf(api));
	});
	afterEach(() => api.stop());

	// The contract's test of this skips adapters without getAuthenticator.
	it('returns null for what is absent', async () => {
		expect(await adapter.getUser('nobody')).toBeNull();
		expect(await adapter.getUserByEmail('nobody@example.com')).toBeNull();
		expect(await adapter.getUserByAccount({ provider: 'github', providerAccountId: 'nobody' })).toBeNull();
		expect(await adapter.getAccount('nobody', 'github')).toBeNull();
		expect(await adapter.getSessionAndUser('no-such-session')).toBeNull();
	});

	it('lets one of two servers link an account at once; the other gets 409 and no second link row', async () => {
		await adapter.createUser(user('u1'));
		await adapter.createUser(user('u2'));
		const twin = HostedDbAdapter(clientOf(api));
		const results = await Promise.allSettled([
			adapter.linkAccount({ userId: 'u1', type: 'oauth', provider: 'github', providerAccountId: '1' }),
			twin.linkAccount({ userId: 'u2', type: 'oauth', provider: 'github', providerAccountId: '1' })
		]);
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
		expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { status: 409 } });
		const [row] = await accountRows();
		expect(await accountRows()).toHaveLength(1);
		expect((await adapter.getUserByAccount({ provider: 'github', providerAccountId: '1' }))?.id).toBe(row!.user);
	});

	it('keeps one link row per account and empties it on unlinkAccount', async () => {
		await adapter.createUser(user('u1'));
		await adapter.linkAccount({ userId: 'u1', type: 'oauth', provider: 'github', providerAccountId: '1' });
		await adapter.linkAccount({ userId: 'u1', type: 'oidc', provider: 'idp', providerAccountId: 'sub' });
		const linked = await accountRows();
		expect(linked).toHaveLength(2);
		for (const row of linked) expect(row).toEqual({ id: row.id, user: 'u1', account: row.id });
		await adapter.unlinkAccount({ provider: 'github', providerAccountId: '1' });
		expect(await accountRows()).toHaveLength(1);
		await adapter.unlinkAccount({ provider: 'idp', providerAccountId: 'sub' });
		expect(await accountRows()).toEqual([]);
		expect(await client.db.authlib_accounts.filter({}).getMany()).toEqual([]);
	});

	it('keeps one link row per session and empties it on deleteSession', async () => {
		await adapter.createUser(user('u1'));
		await adapter.createSession({ sessionToken: 'a', userId: 'u1', expires: expires() });
		await adapter.createSession({ sessionToken: 'b', userId: 'u1', expires: expires() });
		const linked = await sessionRows();
		expect(linked).toHaveLength(2);
		for (const row of linked) expect(row).toEqual({ id: row.id, user: 'u1', session: row.id });
		await adapter.deleteSession('a');
		await adapter.deleteSession('b');
		expect(await sessionRows()).toEqual([]);
		expect(await client.db.authlib_sessions.filter({}).getMany()).toEqual([]);
	});

	it('deletes a user’s accounts, sessions and link rows, and no one else’s', async () => {
		await adapter.createUser(user('u1'));
		await adapter.createUser(user('u2'));
		for (const userId of ['u1', 'u2']) {
			await adapter.linkAccount({ userId, type: 'oauth', provider: 'github', providerAccountId: userId });
			await adapter.createSession({ sessionToken: `session-${userId}`, userId, expires: expires() });
		}
		expect(await adapter.deleteUser('u1')).toMatchObject({ id: 'u1' });
		expect((await accountRows()).map((row) => row.user)).toEqual(['u2']);
		expect((await sessionRows()).map((row) => row.user)).toEqual(['u2']);
		expect((await client.db.authlib_accounts.filter({}).getMany()).map((account) => account.user?.id)).toEqual(['u2']);
		expect((await client.db.authlib_sessions.filter({}).getMany()).map((session) => session.user?.id)).toEqual(['u2']);
		expect(await adapter.deleteUser('u1')).toBeNull();
	});

	it('moves a session’s link row with updateSession when the user changes', async () => {
		await adapter.createUser(user('u1'));
		await adapter.createUser(user('u2'));
		await adapter.createSession({ sessionToken: 's', userId: 'u1', expires: expires() });
		expect(await adapter.updateSession({ sessionToken: 's', userId: 'u2' })).toMatchObject({ userId: 'u2' });
		expect((await adapter.getSessionAndUser('s'))?.user.id).toBe('u2');
		expect((await sessionRows()).map((row) => row.user)).toEqual(['u2']);
	});

	it('stores only the schema’s account columns, so extra account fields do not fail a link', async () => {
		await adapter.createUser(user('u1'));
		await adapter.linkAccount({ userId: 'u1', type: 'oauth', provider: 'github', providerAccountId: '1', expires_in: 3600, extra: 'x' });
		expect(await adapter.getAccount('1', 'github')).toEqual({ userId: 'u1', type: 'oauth', provider: 'github', providerAccountId: '1' });
	});
});
