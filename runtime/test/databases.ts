import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { connectDatabase, migrationsIn, runMigrations, type SqlDialectId } from '../../src/migrate.js';

/**
 * The database servers on the project's machines (README: PostgreSQL and MariaDB on
 * 127.0.0.1, trust / no password, database `test`). Overridable for other machines.
 */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** The schema @auth/pg-adapter's documentation gives (authjs.dev, "PostgreSQL" adapter page). */
export const AUTHJS_PG_SCHEMA = `
CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token));
CREATE TABLE accounts (
	id SERIAL PRIMARY KEY, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL,
	"providerAccountId" VARCHAR(255) NOT NULL, refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT,
	scope TEXT, session_state TEXT, token_type TEXT
);
CREATE TABLE sessions (id SERIAL PRIMARY KEY, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL);
CREATE TABLE users (id SERIAL PRIMARY KEY, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT);
`;

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const migrationsDir = fileURLToPath(new URL('../server/auth/adapters/migrations', import.meta.url));

/** The runtime's migration files for `dialect`, as `create-auth migrate` reads them from an app. */
export function runtimeMigrations(dialect: SqlDialectId) {
	const dir = path.join(migrationsDir, dialect);
	return migrationsIn(Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name), 'utf8')])));
}

const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

/** A scratch database (a PostgreSQL schema, a MariaDB database) of its own, so runs never collide. */
export interface ScratchDatabase {
	/** A URL whose connections see only this scratch database. */
	url: string;
	/** Drops it and everything in it. */
	drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL schema; `url` sets `search_path` to it, so unqualified table names land
 * there. With `migrate`, the runtime's migrations are applied through `create-auth migrate`'s
 * own code.
 */
export async function postgresScratch({ migrate = true } = {}): Promise<ScratchDatabase> {
	const schema = uniqueName('auth_test');
	const admin = new pg.Client({ connectionString: POSTGRES_URL });
	await admin.connect();
	await admin.query(`CREATE SCHEMA ${schema}`);
	const url = new URL(POSTGRES_URL);
	url.searchParams.set('options', `-c search_path=${schema}`);
	const scratch = {
		url: url.href,
		async drop() {
			await admin.query(`DROP SCHEMA ${schema} CASCADE`);
			await admin.end();
		}
	};
	if (migrate) await migrateScratch(scratch.url, 'postgres');
	return scratch;
}

/** A fresh MariaDB/MySQL database, as {@link postgresScratch}. */
export async function mysqlScratch({ migrate = true } = {}): Promise<ScratchDatabase> {
	const database = uniqueName('auth_test');
	const admin = await mysql.createConnection({ uri: MYSQL_URL });
	await admin.query(`CREATE DATABASE ${database}`);
	const url = new URL(MYSQL_URL);
	url.pathname = `/${database}`;
	const scratch = {
		url: url.href,
		async drop() {
			await admin.query(`DROP DATABASE ${database}`);
			await admin.end();
		}
	};
	if (migrate) await migrateScratch(scratch.url, 'mysql');
	return scratch;
}

async function migrateScratch(url: string, dialect: SqlDialectId): Promise<void> {
	const connection = await connectDatabase(repoRoot, dialect, url);
	try {
		await runMigrations(connection, dialect, runtimeMigrations(dialect));
	} finally {
		await connection.close();
	}
}

/**
 * A TCP proxy on 127.0.0.1 to a local port, which a test can stop (every connection cut, new
 * ones refused, as when a database server goes down) and start again on the same port.
 */
export async function tcpProxy(targetPort: number) {
	const sockets = new Set<net.Socket>();
	let server: net.Server | undefined;
	let port = 0;
	const proxy = {
		get port() {
			return port;
		},
		async start() {
			server = net.createServer((client) => {
				const upstream = net.connect(targetPort, '127.0.0.1');
				for (const socket of [client, upstream]) {
					sockets.add(socket);
					socket.on('close', () => sockets.delete(socket));
					socket.on('error', () => undefined);
				}
				client.pipe(upstream).pipe(client);
			});
			await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
			port = (server.address() as net.AddressInfo).port;
		},
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
			server = undefined;
		}
	};
	await proxy.start();
	return proxy;
}
