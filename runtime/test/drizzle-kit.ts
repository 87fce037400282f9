import {
	generateDrizzleJson,
	generateMigration,
	generateMySQLDrizzleJson,
	generateMySQLMigration,
	generateSQLiteDrizzleJson,
	generateSQLiteMigration
} from 'drizzle-kit/api';
import * as mysqlTables from '../server/auth/adapters/drizzle-schema/mysql.js';
import * as postgresTables from '../server/auth/adapters/drizzle-schema/postgres.js';
import * as sqliteTables from '../server/auth/adapters/drizzle-schema/sqlite.js';

/** Runs `make` once, on first use, and shares its promise. */
const once = <T>(make: () => Promise<T>) => {
	let made: Promise<T> | undefined;
	return () => (made ??= make());
};

/**
 * The statements drizzle-kit makes of our Drizzle tables (drizzle-schema/<dialect>.ts) for an
 * empty database: what `drizzle-kit generate` writes into an app's first migration, and what
 * `drizzle-kit push` runs on an empty database. Tests create tables with these and nothing else,
 * so a Drizzle table that differs from what the adapter's SQL expects fails them.
 *
 * PostgreSQL's statements name the target of each foreign key with its schema
 * (`"public"."auth_users"`), where `pgTable` puts the tables.
 */
export const drizzleKitStatements = {
	postgres: once(async () => generateMigration(generateDrizzleJson({}), generateDrizzleJson(postgresTables))),
	mysql: once(async () => generateMySQLMigration(await generateMySQLDrizzleJson({}), await generateMySQLDrizzleJson(mysqlTables))),
	sqlite: once(async () => generateSQLiteMigration(await generateSQLiteDrizzleJson({}), await generateSQLiteDrizzleJson(sqliteTables)))
};
