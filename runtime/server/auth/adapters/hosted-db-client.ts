// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.

/*
 * A hosted database reached through a small REST record API (Xata-style); hosted-db.ts is the
 * adapter over it.
 *
 * Wire protocol, relative to `{databaseURL}:{branch}`, JSON both ways, `Authorization: Bearer <apiKey>`:
 *   POST   /tables/{table}/data       create; the body may carry `id` (else the server picks one) → 201 record
 *   GET    /tables/{table}/data/{id}  read → 200 record
 *   PATCH  /tables/{table}/data/{id}  update the given columns → 200 record
 *   DELETE /tables/{table}/data/{id}  delete → 200 the deleted record
 *   POST   /tables/{table}/query      { filter, columns?, page?: { size } } → 200 { records }
 *   POST   /transaction               { operations: [{ insert: { table, record } }] }, all or nothing → 200 { records }
 * A record is `{ id, ...columns }`. Dates travel as ISO 8601 strings. A link column is written as the
 * linked record's id and read as `{ id }`, or as the whole linked record when `columns` names
 * `'<link>.*'`. A filter is `{ column: value }` (all must hold; a link compares the linked id) and
 * may reach through a link: `{ 'account.provider': 'idp' }`. Errors answer `{ code, message }`:
 * 400 BAD_REQUEST, 401 UNAUTHORIZED, 404 NOT_FOUND (route, branch, table), 404 RECORD_NOT_FOUND,
 * 409 CONFLICT (an id or a unique column value that exists).
 */

/**
 * Where the hosted database is and how to reach it.
 * - `databaseURL`: the database without its branch, e.g. `https://acme.example.com/db/app`; requests
 *   go to `{databaseURL}:{branch}/…`. Without it every call rejects with {@link HostedDbError}.
 * - `branch`: default `main`.
 * - `apiKey`: sent as `Authorization: Bearer <apiKey>`.
 * - `fetch`: used in place of the global `fetch` (tests, proxies).
 * @see create-auth docs/api.md#hosted-database-schema
 */
export interface BaseClientOptions {
	databaseURL?: string;
	branch?: string;
	apiKey?: string;
	fetch?: typeof fetch;
}

/**
 * A failed record API call, always as a rejected promise. `status` is the HTTP status of the
 * answer (400 a bad column or value, 401 a wrong key, 404 no such table or branch, 409 a duplicate
 * id or unique value); it is absent when no answer came (the server is down, `databaseURL` is
 * unset), with the underlying error as `cause`. `code` is the server's error code, when it sent one.
 */
export class HostedDbError extends Error {
	override name = 'HostedDbError';
	readonly status: number | undefined;
	readonly code: string | undefined;

	constructor(message: string, details: { status?: number; code?: string; cause?: unknown } = {}) {
		super(message, { cause: details.cause });
		this.status = details.status;
		this.code = details.code;
	}
}

/** The system field every record has: its id, unique in its table. */
export interface HostedRecord {
	id: string;
}

/** `authlib_users`. `email` is unique (nulls excepted). */
export interface UsersRecord extends HostedRecord {
	email?: string | null;
	image?: string | null;
	name?: string | null;
	emailVerified?: Date | null;
}

/**
 * `authlib_accounts`; `expires_at` is epoch seconds. `oauth_token`, `oauth_token_secret` (OAuth
 * 1.0a accounts, as the spec's "Authentication" rule 11 asks) and `password_hash` (password
 * accounts) extend the spec's columns.
 */
export interface AccountsRecord extends HostedRecord {
	access_token?: string | null;
	id_token?: string | null;
	provider?: string | null;
	providerAccountId?: string | null;
	refresh_token?: string | null;
	scope?: string | null;
	session_state?: string | null;
	token_type?: string | null;
	type?: string | null;
	expires_at?: number | null;
	user?: UsersRecord | null;
	oauth_token?: string | null;
	oauth_token_secret?: string | null;
	password_hash?: string | null;
}

/** `authlib_sessions`. */
export interface SessionsRecord extends HostedRecord {
	sessionToken?: string | null;
	expires?: Date | null;
	user?: UsersRecord | null;
}

/** `authlib_users_accounts`: one row per account, linking it to its user. */
export interface UsersAccountsRecord extends HostedRecord {
	user?: UsersRecord | null;
	account?: AccountsRecord | null;
}

/** `authlib_users_sessions`: one row per session, linking it to its user. */
export interface UsersSessionsRecord extends HostedRecord {
	user?: UsersRecord | null;
	session?: SessionsRecord | null;
}

/** `authlib_verificationTokens`. */
export interface VerificationTokensRecord extends HostedRecord {
	identifier?: string | null;
	token?: string | null;
	expires?: Date | null;
}

/**
 * The tables and the records they hold, as the client reads them: every column optional and
 * nullable, Dates as `Date`, a link as the linked record (only `id` unless expanded).
 * @see create-auth docs/api.md#hosted-database-schema
 */
export interface HostedDbTables {
	authlib_users: UsersRecord;
	authlib_accounts: AccountsRecord;
	authlib_sessions: SessionsRecord;
	authlib_users_accounts: UsersAccountsRecord;
	authlib_users_sessions: UsersSessionsRecord;
	authlib_verificationTokens: VerificationTokensRecord;
}

/** A table's name. */
export type TableName = keyof HostedDbTables;

/** A column's type: text, a whole number, a date-time (ISO 8601 on the wire), or a link to a record of `link`. */
export type ColumnType = 'string' | 'int' | 'datetime' | { link: TableName };

/** A table's columns (every field of its record but `id`) and the columns whose non-null values are unique. */
export interface TableSchema<T extends HostedRecord = HostedRecord> {
	columns: { readonly [C in Exclude<keyof T, 'id'>]-?: ColumnType };
	unique?: readonly Exclude<keyof T, 'id'>[];
}

/**
 * The schema the hosted database must have: the spec's tables and columns, the account
 * extensions of {@link AccountsRecord}, and a unique `authlib_users.email`. The client reads it to
 * turn dates and links back into `Date`s and records.
 * @see create-auth docs/api.md#hosted-database-schema
 */
export const hostedDbSchema: { readonly [K in TableName]: TableSchema<HostedDbTables[K]> } = {
	authlib_users: {
		columns: { email: 'string', image: 'string', name: 'string', emailVerified: 'datetime' },
		unique: ['email']
	},
	authlib_accounts: {
		columns: {
			access_token: 'string', id_token: 'string', provider: 'string', providerAccountId: 'string',
			refresh_token: 'string', scope: 'string', session_state: 'string', token_type: 'string', type: 'string',
			expires_at: 'int', user: { link: 'authlib_users' },
			oauth_token: 'string', oauth_token_secret: 'string', password_hash: 'string'
		}
	},
	authlib_sessions: { columns: { sessionToken: 'string', expires: 'datetime', user: { link: 'authlib_users' } } },
	authlib_users_accounts: { columns: { user: { link: 'authlib_users' }, account: { link: 'authlib_accounts' } } },
	authlib_users_sessions: { columns: { user: { link: 'authlib_users' }, session: { link: 'authlib_sessions' } } },
	authlib_verificationTokens: { columns: { identifier: 'string', token: 'string', expires: 'datetime' } }
};

/** What a create or update writes: the record's columns, a link as the linked record's id. */
export type Editable<T extends HostedRecord> = {
	[K in Exclude<keyof T, 'id'>]?: NonNullable<T[K]> extends HostedRecord ? string | null : T[K];
};

/**
 * A query filter: column → value, all of which must hold. A link column compares the linked
 * record's id; `'<link>.<column>'` compares a column of the linked record. `null` and `undefined`
 * both match a null or absent value (an undefined value never widens the filter).
 */
export type Filter = Record<string, string | number | Date | null | undefined>;

/** One operation of a transaction: an insert into one table. */
export type TransactionOperation = {
	[K in TableName]: { insert: { table: K; record: Editable<HostedDbTables[K]> & { id?: string } } };
}[TableName];

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Send = (method: Method, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** The JSON value of a record's fields: Dates as ISO strings, undefined as null when `nulls` (filters). */
const encode = (fields: object, nulls = false) =>
	Object.fromEntries(
		Object.entries(fields).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : nulls ? (value ?? null) : value])
	);

/** A record as the server sent it, with Dates and (expanded) links turned back into their types. */
function decode<K extends TableName>(table: K, raw: unknown): HostedDbTables[K] {
	if (typeof raw !== 'object' || raw === null) throw new HostedDbError(`${table}: the answer is not a record`);
	const record: Record<string, unknown> = { ...raw };
	for (const [column, type] of Object.entries(hostedDbSchema[table].columns) as [string, ColumnType][]) {
		const value = record[column];
		if (value === null || value === undefined) continue;
		if (type === 'datetime') record[column] = new Date(value as string);
		else if (typeof type === 'object') record[column] = decode(type.link, value);
	}
	return record as unknown as HostedDbTables[K];
}

/** A read, update or delete of a record that is not there resolves with null. */
const nullIfMissing = (error: unknown): null => {
	if (error instanceof HostedDbError && error.code === 'RECORD_NOT_FOUND') return null;
	throw error;
};

/** One table's records: create, read, update, delete by id, and filtered queries. Made by {@link HostedDbClient}. */
export class Table<K extends TableName> {
	readonly #send: Send;
	readonly #name: K;

	constructor(send: Send, name: K) {
		this.#send = send;
		this.#name = name;
	}

	#data = (id?: string) => `/tables/${this.#name}/data${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

	/** Creates a record (with `id` when given). Rejects with status 409 when the id or a unique value exists. */
	async create(fields: Editable<HostedDbTables[K]> & { id?: string }): Promise<HostedDbTables[K]> {
		return decode(this.#name, await this.#send('POST', this.#data(), encode(fields)));
	}

	/** The record with `id`, or null. */
	async read(id: string): Promise<HostedDbTables[K] | null> {
		return this.#send('GET', this.#data(id)).then((raw) => decode(this.#name, raw), nullIfMissing);
	}

	/** Sets the given columns and resolves with the whole record, or null when there is none with `id`. */
	async update(id: string, fields: Editable<HostedDbTables[K]>): Promise<HostedDbTables[K] | null> {
		return this.#send('PATCH', this.#data(id), encode(fields)).then((raw) => decode(this.#name, raw), nullIfMissing);
	}

	/**
	 * Deletes the record with `id` and resolves with it, or with null when there was none: of
	 * concurrent deletes of one record, exactly one gets it.
	 */
	async delete(id: string): Promise<HostedDbTables[K] | null> {
		return this.#send('DELETE', this.#data(id)).then((raw) => decode(this.#name, raw), nullIfMissing);
	}

	/** A query of the records matching `filter`. */
	filter(filter: Filter): Query<K> {
		return new Query(this.#send, this.#name, filter, ['*']);
	}
}

/** A filtered query of one table; `select` picks the columns, `getFirst` / `getMany` run it. */
export class Query<K extends TableName> {
	readonly #send: Send;
	readonly #table: K;
	readonly #filter: Filter;
	readonly #columns: readonly string[];

	constructor(send: Send, table: K, filter: Filter, columns: readonly string[]) {
		this.#send = send;
		this.#table = table;
		this.#filter = filter;
		this.#columns = columns;
	}

	/** The columns to return: `'*'` (all, links as `{ id }`), column names, `'<link>.*'` (the linked record). */
	select(columns: readonly string[]): Query<K> {
		return new Query(this.#send, this.#table, this.#filter, columns);
	}

	/** Up to `size` matching records (default 20, at most 200), in no particular order. */
	async getMany({ size = 20 }: { size?: number } = {}): Promise<HostedDbTables[K][]> {
		const body = { filter: encode(this.#filter, true), columns: this.#columns, page: { size } };
		const { records } = await this.#send('POST', `/tables/${this.#table}/query`, body);
		if (!Array.isArray(records)) throw new HostedDbError(`${this.#table}: the answer holds no records`);
		return records.map((raw) => decode(this.#table, raw));
	}

	/** The first matching record, or null. */
	async getFirst(): Promise<HostedDbTables[K] | null> {
		return (await this.getMany({ size: 1 }))[0] ?? null;
	}
}

/**
 * Sends one request to `{databaseURL}:{branch}{path}` and resolves with its JSON answer; any
 * failure (no databaseURL, no answer, a non-2xx status, an answer that is not JSON) rejects with
 * {@link HostedDbError}.
 */
async function send(options: BaseClientOptions, method: Method, path: string, body?: unknown) {
	const { databaseURL, branch = 'main', apiKey } = options;
	if (!databaseURL) throw new HostedDbError('HostedDbClient: databaseURL is not set');
	const url = `${databaseURL.replace(/\/+$/, '')}:${branch}${path}`;
	const headers: Record<string, string> = { accept: 'application/json' };
	if (apiKey) headers.authorization = `Bearer ${apiKey}`;
	if (body !== undefined) headers['content-type'] = 'application/json';
	let response: Response;
	let answer: unknown;
	try {
		// Called as a plain function: a browser's fetch refuses another `this`.
		const fetchFn = options.fetch ?? fetch;
		response = await fetchFn(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
		answer = await response.json().catch(() => undefined);
	} catch (cause) {
		throw new HostedDbError(`${method} ${url}: no answer (${(cause as Error)?.message ?? cause})`, { cause });
	}
	const { status } = response;
	if (!response.ok) {
		const { code, message } = (answer ?? {}) as { code?: string; message?: string };
		throw new HostedDbError(`${method} ${url}: ${status} ${message ?? response.statusText}`, { status, code });
	}
	if (typeof answer !== 'object' || answer === null) throw new HostedDbError(`${method} ${url}: the answer is not JSON`, { status });
	return answer as Record<string, unknown>;
}

/**
 * A client of the hosted database's record API: typed tables under `db`
 * (`client.db.authlib_users.read(id)`, `.filter({ email }).getFirst()`, …) and all-or-nothing
 * inserts under `transactions`. The constructor does no I/O and never throws; every call answers
 * with a promise, failures as {@link HostedDbError}.
 * @see create-auth docs/api.md#hosted-database-schema
 */
export class HostedDbClient {
	readonly db: { readonly [K in TableName]: Table<K> };
	readonly transactions: {
		/** Inserts every record or none; resolves with the records created, in order. Rejects with the first failure's status. */
		run(operations: readonly TransactionOperation[]): Promise<HostedRecord[]>;
	};
	readonly #options: BaseClientOptions;

	constructor(options: BaseClientOptions = {}) {
		this.#options = { ...options };
		const request: Send = (method, path, body) => send(this.#options, method, path, body);
		const tables = Object.keys(hostedDbSchema) as TableName[];
		this.db = Object.fromEntries(tables.map((name) => [name, new Table(request, name)])) as HostedDbClient['db'];
		this.transactions = {
			async run(operations) {
				const body = { operations: operations.map(({ insert }) => ({ insert: { table: insert.table, record: encode(insert.record) } })) };
				const { records } = await request('POST', '/transaction', body);
				if (!Array.isArray(records)) throw new HostedDbError('transaction: the answer holds no records');
				return records.map((raw, i) => decode(operations[i]!.insert.table, raw));
			}
		};
	}

	/** Where this client sends its requests: `{ branch, databaseURL }` (branch default `main`). Rejects when `databaseURL` is unset. */
	async getConfig(): Promise<{ branch: string; databaseURL: string }> {
		const { databaseURL, branch = 'main' } = this.#options;
		if (!databaseURL) throw new HostedDbError('HostedDbClient: databaseURL is not set');
		return { branch, databaseURL };
	}
}
