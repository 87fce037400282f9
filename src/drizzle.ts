import path from 'node:path';
import type { Node } from '@babel/types';
import { parseModule, walk } from './edits/ast.js';

/** The SQL dialects of the Drizzle adapter, as our drizzle-schema modules name them. */
export type DrizzleDialect = 'postgres' | 'mysql' | 'sqlite';

/**
 * An app's Drizzle setup, as `sv add drizzle` makes it: `drizzle.config.(ts|js)` naming the
 * dialect and one schema file, and a lib module exporting the app's `db`.
 */
export interface DrizzleSetup {
	/** The drizzle-kit config file, app-relative (`drizzle.config.ts`). */
	config: (typeof DRIZZLE_CONFIGS)[number];
	dialect: DrizzleDialect;
	/** The schema file drizzle-kit reads, app-relative POSIX (`src/lib/server/db/schema.ts`). */
	schema: string;
	/** The module exporting `db`, lib-relative without extension (`server/db/index`). */
	db: string;
}

/** drizzle-kit's `dialect` values, mapped to ours (Turso is SQLite over libsql). */
const DIALECTS: Record<string, DrizzleDialect> = { postgresql: 'postgres', mysql: 'mysql', sqlite: 'sqlite', turso: 'sqlite' };

/** The drizzle-kit config files, in the order they are looked for. */
export const DRIZZLE_CONFIGS = ['drizzle.config.ts', 'drizzle.config.js'] as const;

/**
 * The app's Drizzle setup from its files: the first drizzle-kit config with a string `dialect`
 * we support and a single string `schema` file inside the lib folder, and the `db` module
 * `sv add drizzle` writes beside that schema (`index.ts` or `index.js`).
 *
 * @param files app-relative path → text (`undefined`: absent): the configs, and the candidate
 *   `db` modules ({@link drizzleDbCandidates})
 * @param libDir the app's lib folder, app-relative (`src/lib`)
 * @returns undefined when the app has no config, or one we cannot read statically (a computed
 *   dialect, several schema files, a schema outside the lib folder), or no `db` module there
 */
export function detectDrizzle(files: Record<string, string | undefined>, libDir: string): DrizzleSetup | undefined {
	const config = DRIZZLE_CONFIGS.find((file) => files[file] !== undefined);
	const dialect = DIALECTS[configOptions(files)?.dialect ?? ''];
	const schema = drizzleSchemaPath(files);
	if (!config || !dialect || !schema?.startsWith(`${libDir}/`) || !/\.(ts|js)$/.test(schema)) return undefined;
	const db = drizzleDbCandidates(schema).find((file) => files[file] !== undefined);
	if (!db) return undefined;
	return { config, dialect, schema, db: db.slice(libDir.length + 1).replace(/\.(ts|js)$/, '') };
}

/** The schema file the app's drizzle-kit config names, app-relative POSIX; undefined without one. */
export function drizzleSchemaPath(files: Record<string, string | undefined>): string | undefined {
	const schema = configOptions(files)?.schema;
	return schema && path.posix.normalize(schema.replace(/^\.\//, ''));
}

/** `dialect` and `schema` of the first drizzle-kit config the app has. */
function configOptions(files: Record<string, string | undefined>): Record<string, string | undefined> | undefined {
	const config = DRIZZLE_CONFIGS.find((file) => files[file] !== undefined);
	return config && stringOptions(files[config]!, ['dialect', 'schema']);
}

/** Where `sv add drizzle` puts the module exporting `db`: `index.(ts|js)` beside the schema file. */
export function drizzleDbCandidates(schema: string): string[] {
	const dir = path.posix.dirname(schema);
	return [`${dir}/index.ts`, `${dir}/index.js`];
}

/**
 * String values of the given properties of the config object (`defineConfig({ … })` or a plain
 * exported object), wherever they appear as `key: 'literal'`; a key whose value is not a string
 * literal is absent.
 */
function stringOptions(source: string, keys: readonly string[]): Record<string, string | undefined> {
	const ast = parseModule(source);
	const found: Record<string, string | undefined> = {};
	if (!ast) return found;
	walk(ast.program, (node: Node) => {
		if (node.type !== 'ObjectProperty' || node.computed) return;
		const key = node.key.type === 'Identifier' ? node.key.name : node.key.type === 'StringLiteral' ? node.key.value : undefined;
		if (!key || !keys.includes(key) || key in found) return;
		found[key] = node.value.type === 'StringLiteral' ? node.value.value : undefined;
	});
	return found;
}
