import { describe, expect, it } from 'vitest';
import { detectDrizzle, drizzleSchemaPath } from './drizzle.js';

/** A drizzle-kit config as `sv add drizzle` writes it, with the given dialect and schema. */
const config = (dialect: string, schema = './src/lib/server/db/schema.ts') => `import { defineConfig } from 'drizzle-kit';

if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');

export default defineConfig({
	schema: '${schema}',
	dialect: '${dialect}',
	dbCredentials: { url: process.env.DATABASE_URL },
	verbose: true,
	strict: true
});
`;
const DB = { 'src/lib/server/db/index.ts': 'export const db = drizzle(client, { schema });' };

describe('detectDrizzle', () => {
	it.each([
		['postgresql', 'postgres'],
		['mysql', 'mysql'],
		['sqlite', 'sqlite'],
		['turso', 'sqlite']
	])("reads sv's config with dialect %s as %s, its schema file and the db module beside it", (dialect, ours) => {
		expect(detectDrizzle({ 'drizzle.config.ts': config(dialect), ...DB }, 'src/lib')).toEqual({
			config: 'drizzle.config.ts',
			dialect: ours,
			schema: 'src/lib/server/db/schema.ts',
			db: 'server/db/index'
		});
	});

	it('reads a JavaScript config and a JavaScript db module', () => {
		const files = { 'drizzle.config.js': config('sqlite', 'src/lib/server/db/schema.js'), 'src/lib/server/db/index.js': 'export const db = 1;' };
		expect(detectDrizzle(files, 'src/lib')).toEqual({ config: 'drizzle.config.js', dialect: 'sqlite', schema: 'src/lib/server/db/schema.js', db: 'server/db/index' });
	});

	it.each([
		['no config', {}],
		['a dialect we have no adapter for', { 'drizzle.config.ts': config('gel'), ...DB }],
		['a computed dialect', { 'drizzle.config.ts': config('sqlite').replace("dialect: 'sqlite'", 'dialect: process.env.DIALECT'), ...DB }],
		['a schema outside the lib folder', { 'drizzle.config.ts': config('sqlite', './db/schema.ts'), 'db/index.ts': '' }],
		['a schema folder rather than a file', { 'drizzle.config.ts': config('sqlite', './src/lib/server/db'), ...DB }],
		['no db module beside the schema', { 'drizzle.config.ts': config('sqlite') }],
		['a config that does not parse', { 'drizzle.config.ts': 'export default {', ...DB }]
	])('is undefined for %s', (_, files) => {
		expect(detectDrizzle(files as Record<string, string>, 'src/lib')).toBeUndefined();
	});

	it('finds the schema path even without a db module, so detection can read that file', () => {
		expect(drizzleSchemaPath({ 'drizzle.config.ts': config('sqlite') })).toBe('src/lib/server/db/schema.ts');
	});
});
