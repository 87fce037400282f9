import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostedDbSchema, type ColumnType } from '../server/auth/adapters/hosted-db-client.js';

/** A record as stored: `id`, then column values as they came over the wire (dates as ISO strings, links as ids). */
type Stored = { id: string } & Record<string, unknown>;

/** A running record API (see the protocol at the top of `hosted-db.ts`). */
export interface RecordApi {
	/** `http://127.0.0.1:<port>/db/test`; requests go to `{databaseURL}:{branch}/…`. */
	databaseURL: string;
	branch: string;
	/** The bearer key every request must carry. */
	apiKey: string;
	/** How many records a table holds now (`authlib_sessions`, …). */
	count(table: string): number;
	/** An outage while `true`: every request's connection is dropped without an answer; the records stay. */
	setDown(down: boolean): void;
	/** Stops listening and drops open connections; the records are gone. */
	stop(): Promise<void>;
}

/** An error answer: status and `{ code, message }`. */
class Failure extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string
	) {
		super(message);
	}
}
const bad = (message: string) => new Failure(400, 'BAD_REQUEST', message);

const MAX_PAGE = 200;

/** `object[key]` when it is the object's own (so `toString` is no column). */
const own = <T>(object: Record<string, T>, key: string) => (Object.hasOwn(object, key) ? object[key] : undefined);

/**
 * The hosted database's record API in memory, on 127.0.0.1 and a free port, for tests: the
 * tables of the adapter's `hostedDbSchema`, a fresh bearer key, 404 for unknown records (code
 * `RECORD_NOT_FOUND`) and routes, 409 for a duplicate id or unique value, 400 for unknown columns,
 * values of the wrong type and links to missing records, filters on columns and through links,
 * link expansion, and all-or-nothing transactions of inserts. Each request is handled in one
 * synchronous step once its body is read, so concurrent requests never interleave.
 */
export async function startRecordApi(): Promise<RecordApi> {
	const schema: Record<string, { columns: Record<string, ColumnType>; unique?: readonly string[] }> = hostedDbSchema;
	const branch = 'main';
	const apiKey = `key_${randomUUID()}`;
	const tables = new Map(Object.keys(schema).map((name) => [name, new Map<string, Stored>()]));

	const tableOf = (name: string) => {
		const table = tables.get(name);
		if (!table) throw new Failure(404, 'NOT_FOUND', `no table ${name}`);
		return { records: table, columns: schema[name]!.columns, unique: schema[name]!.unique ?? [] };
	};
	const missing = (table: string, id: string) => new Failure(404, 'RECORD_NOT_FOUND', `no record ${id} in ${table}`);

	/** Checks a write's columns and values; throws 400 or 409. */
	function check(name: string, fields: Record<string, unknown>, selfId?: string) {
		const { records, columns, unique } = tableOf(name);
		for (const [column, value] of Object.entries(fields)) {
			const type = own(columns, column);
			if (type === undefined) throw bad(`${name} has no column ${column}`);
			if (value === null) continue;
			const ok =
				type === 'string' ? typeof value === 'string'
				: type === 'int' ? Number.isInteger(value)
				: type === 'datetime' ? typeof value === 'string' && !Number.isNaN(Date.parse(value))
				: typeof value === 'string';
			if (!ok) throw bad(`${name}.${column}: not a ${typeof type === 'object' ? 'record id' : type}`);
			if (typeof type === 'object' && !tables.get(type.link)!.has(value as string)) throw bad(`${name}.${column}: no record ${value} in ${type.link}`);
		}
		for (const column of unique) {
			const value = fields[column];
			if (value === null || value === undefined) continue;
			for (const record of records.values()) {
				if (record.id !== selfId && record[column] === value) throw new Failure(409, 'CONFLICT', `${name}.${column} ${value} exists`);
			}
		}
	}

	/** A stored record as the API answers it: links as `{ id }`, or expanded when `columns` has `'<link>.*'`. */
	function output(name: string, record: Stored, columns: readonly string[] = ['*']): Record<string, unknown> {
		const answer: Record<string, unknown> = { id: record.id };
		for (const [column, type] of Object.entries(tableOf(name).columns)) {
			const value = record[column];
			const expand = typeof type === 'object' && columns.includes(`${column}.*`);
			if (value === undefined || !(expand || columns.includes('*') || columns.includes(column))) continue;
			if (typeof type !== 'object' || value === null) answer[column] = value;
			else if (!expand) answer[column] = { id: value };
			else {
				const linked = tables.get(type.link)!.get(value as string);
				answer[column] = linked ? output(type.link, linked) : null;
			}
		}
		return answer;
	}

	function insert(name: string, body: unknown) {
		const { records } = tableOf(name);
		if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the body is not a record');
		const { id = `rec_${randomUUID()}`, ...fields } = body as Record<string, unknown>;
		if (typeof id !== 'string' || id === '') throw bad('id must be a non-empty string');
		if (records.has(id)) throw new Failure(409, 'CONFLICT', `${name} has a record ${id}`);
		check(name, fields);
		const record: Stored = { id, ...fields };
		records.set(id, record);
		return record;
	}

	/** Whether `record` matches every entry of `filter` (see `Filter` in `hosted-db.ts`). */
	function matches(name: string, record: Stored, filter: Record<string, unknown>) {
		const { columns } = tableOf(name);
		return Object.entries(filter).every(([key, expected]) => {
			const [column = '', through, ...rest] = key.split('.');
			const type = own(columns, column);
			if (type === undefined || rest.length > 0) throw bad(`${name} cannot filter on ${key}`);
			let value = record[column];
			if (through !== undefined) {
				if (typeof type !== 'object' || own(tableOf(type.link).columns, through) === undefined) throw bad(`${name} cannot filter on ${key}`);
				value = tables.get(type.link)!.get(value as string)?.[through];
			}
			return (value ?? null) === (expected ?? null);
		});
	}

	function query(name: string, body: unknown) {
		const { records, columns: known } = tableOf(name);
		const { filter = {}, columns = ['*'], page = {} } = (body ?? {}) as { filter?: unknown; columns?: unknown; page?: { size?: unknown } };
		if (typeof filter !== 'object' || filter === null) throw bad('filter must be an object');
		const selectable = (c: unknown) =>
			typeof c === 'string' && (c === '*' || own(known, c) !== undefined || (c.endsWith('.*') && typeof own(known, c.slice(0, -2)) === 'object'));
		if (!Array.isArray(columns) || !columns.every(selectable)) throw bad(`bad columns ${JSON.stringify(columns)}`);
		const size = page.size ?? 20;
		if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > MAX_PAGE) throw bad(`page.size must be 1 to ${MAX_PAGE}`);
		const found = [...records.values()].filter((record) => matches(name, record, filter as Record<string, unknown>));
		return { records: found.slice(0, size as number).map((record) => output(name, record, columns)) };
	}

	/** Applies the inserts in order; on the first failure undoes the earlier ones and throws it. */
	function transaction(body: unknown) {
		const operations = (body as { operations?: unknown })?.operations;
		if (!Array.isArray(operations)) throw bad('operations must be an array');
		const done: [string, Stored][] = [];
		try {
			for (const operation of operations) {
				const { table, record } = (operation as { insert?: { table?: unknown; record?: unknown } })?.insert ?? {};
				if (typeof table !== 'string') throw bad('each operation must be { insert: { table, record } }');
				done.push([table, insert(table, record)]);
			}
		} catch (error) {
			for (const [table, record] of done.reverse()) tables.get(table)!.delete(record.id);
			throw error;
		}
		return { records: done.map(([table, record]) => output(table, record)) };
	}

	const prefix = `/db/test:${branch}`;
	/** Answers one request: [status, JSON body]. */
	function route(method: string, pathname: string, body: unknown): [number, unknown] {
		if (!pathname.startsWith(`${prefix}/`)) throw new Failure(404, 'NOT_FOUND', `no database or branch at ${pathname}`);
		const path = pathname.slice(prefix.length);
		if (path === '/transaction' && method === 'POST') return [200, transaction(body)];
		const match = /^\/tables\/([^/]+)\/(data|query)(?:\/([^/]*))?$/.exec(path);
		if (!match) throw new Failure(404, 'NOT_FOUND', `no route ${path}`);
		const [, name = '', kind, rawId] = match;
		const { records } = tableOf(name);
		if (kind === 'query' && rawId === undefined && method === 'POST') return [200, query(name, body)];
		if (kind === 'data' && rawId === undefined && method === 'POST') return [201, output(name, insert(name, body))];
		if (kind !== 'data' || rawId === undefined) throw new Failure(405, 'METHOD_NOT_ALLOWED', `${method} ${path}`);
		const id = decodeURIComponent(rawId);
		const record = records.get(id);
		if (!record) throw missing(name, id);
		if (method === 'GET') return [200, output(name, record)];
		if (method === 'DELETE') {
			records.delete(id);
			return [200, output(name, record)];
		}
		if (method === 'PATCH') {
			if (typeof body !== 'object' || body === null || 'id' in body) throw bad('the body must be columns to set, without id');
			check(name, body as Record<string, unknown>, id);
			Object.assign(record, body);
			return [200, output(name, record)];
		}
		throw new Failure(405, 'METHOD_NOT_ALLOWED', `${method} ${path}`);
	}

	let down = false;
	const server = http.createServer((request, response) => {
		if (down) return void request.socket.destroy();
		const chunks: Buffer[] = [];
		request.on('error', () => response.destroy());
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			let status: number;
			let answer: unknown;
			try {
				if (request.headers.authorization !== `Bearer ${apiKey}`) throw new Failure(401, 'UNAUTHORIZED', 'a wrong or missing API key');
				const text = Buffer.concat(chunks).toString('utf8');
				let body: unknown;
				try {
					body = text ? JSON.parse(text) : undefined;
				} catch {
					throw bad('the body is not JSON');
				}
				[status, answer] = route(request.method ?? 'GET', new URL(request.url ?? '/', 'http://localhost').pathname, body);
			} catch (error) {
				const failure = error instanceof Failure ? error : new Failure(500, 'INTERNAL', String(error));
				[status, answer] = [failure.status, { code: failure.code, message: failure.message }];
			}
			response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		databaseURL: `http://127.0.0.1:${port}/db/test`,
		branch,
		apiKey,
		count: (table) => tableOf(table).records.size,
		setDown: (value) => {
			down = value;
		},
		stop: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			})
	};
}
