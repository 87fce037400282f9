import { describe, expect, it } from 'vitest';
import { addSchemaExport } from './drizzle-schema.js';

const SCHEMA = `import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const task = sqliteTable('task', { id: text('id').primaryKey() });
`;
const SPECIFIER = '../auth/adapters/drizzle-schema/sqlite';

describe('addSchemaExport', () => {
	it('appends the re-export after the app’s own tables, leaving every line of theirs as it was', () => {
		const { content, pending } = addSchemaExport(SCHEMA, SPECIFIER, 'src/lib/server/db/schema.ts');
		expect(pending).toBeUndefined();
		expect(content.startsWith(SCHEMA)).toBe(true);
		expect(content.slice(SCHEMA.length)).toBe(`\n// The auth tables (create-auth): drizzle-kit creates them with yours.\nexport * from '${SPECIFIER}';\n`);
	});

	it('is idempotent, and adds a newline a file lacks at its end', () => {
		const once = addSchemaExport(SCHEMA.trimEnd(), SPECIFIER, 'schema.ts').content;
		expect(once).toContain(`export const task = sqliteTable('task', { id: text('id').primaryKey() });\n\n// The auth tables`);
		expect(addSchemaExport(once, SPECIFIER, 'schema.ts').content).toBe(once);
	});

	it('leaves a file that does not parse alone, with the manual step', () => {
		const broken = 'export const task = sqliteTable(';
		expect(addSchemaExport(broken, SPECIFIER, 'src/lib/server/db/schema.ts')).toEqual({
			content: broken,
			pending: expect.stringContaining(`export * from '${SPECIFIER}';\` to src/lib/server/db/schema.ts`)
		});
	});
});
