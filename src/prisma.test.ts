import { describe, expect, it } from 'vitest';
import { detectPrisma, prismaProvider, prismaSchemaPath } from './prisma.js';

const SCHEMA = (provider: string) => `generator client {\n  provider = "prisma-client"\n  output   = "../src/generated/prisma"\n}\n\ndatasource db {\n  provider = "${provider}"\n}\n`;

// The client module of Prisma 7's SvelteKit guide, and variants apps write.
const CLIENT = `import { PrismaClient } from '../../generated/prisma/client';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { DATABASE_URL } from '$env/static/private';

const adapter = new PrismaBetterSqlite3({ url: DATABASE_URL });
export const prisma = new PrismaClient({ adapter });
`;

describe('prismaSchemaPath', () => {
	it("is the file prisma.config.ts names, else Prisma's default", () => {
		expect(prismaSchemaPath({})).toBe('prisma/schema.prisma');
		const config = "import { defineConfig, env } from 'prisma/config';\nexport default defineConfig({ schema: './db/schema.prisma', datasource: { url: env('DATABASE_URL') } });\n";
		expect(prismaSchemaPath({ 'prisma.config.ts': config })).toBe('db/schema.prisma');
		expect(prismaSchemaPath({ 'prisma.config.ts': "export default { schema: 'prisma/app.prisma' } satisfies object;" })).toBe('prisma/app.prisma');
		expect(prismaSchemaPath({ 'prisma.config.ts': 'export default defineConfig({ schema: process.env.SCHEMA });' })).toBe('prisma/schema.prisma');
		expect(prismaSchemaPath({ 'prisma.config.ts': 'export default defineConfig({' })).toBe('prisma/schema.prisma');
		// Prisma 7.10 reads prisma7.config.ts before prisma.config.ts.
		expect(prismaSchemaPath({ 'prisma.config.ts': "export default { schema: 'a.prisma' };", 'prisma7.config.ts': "export default { schema: 'b.prisma' };" })).toBe('b.prisma');
	});
});

describe('prismaProvider', () => {
	it('reads the datasource provider, only the ones the adapter runs on', () => {
		expect(prismaProvider(SCHEMA('sqlite'))).toBe('sqlite');
		expect(prismaProvider(SCHEMA('postgresql'))).toBe('postgresql');
		expect(prismaProvider(SCHEMA('mysql'))).toBeUndefined();
		expect(prismaProvider(SCHEMA('mongodb'))).toBeUndefined();
		expect(prismaProvider('generator client {\n  provider = "prisma-client"\n}\n')).toBeUndefined();
		expect(prismaProvider('datasource db {\n  provider = ')).toBeUndefined();
	});
});

describe('detectPrisma', () => {
	it('finds the schema, its provider, and the module exporting the client', () => {
		const files = { 'prisma/schema.prisma': SCHEMA('sqlite'), 'src/lib/server/prisma.ts': CLIENT };
		expect(detectPrisma(files, 'src/lib')).toEqual({ schema: 'prisma/schema.prisma', provider: 'sqlite', client: 'server/prisma', clientExport: 'prisma' });
	});

	it('takes a default export, or one named db, in another common module', () => {
		const defaultExport = CLIENT.replace('export const prisma =', 'const prisma =') + 'export default prisma;\n';
		expect(detectPrisma({ 'prisma/schema.prisma': SCHEMA('postgresql'), 'src/lib/prisma.js': defaultExport }, 'src/lib')).toMatchObject({ client: 'prisma', clientExport: 'default', provider: 'postgresql' });
		const named = CLIENT.replace('export const prisma =', 'const client =') + 'export { client as db };\n';
		expect(detectPrisma({ 'prisma/schema.prisma': SCHEMA('sqlite'), 'src/lib/server/db/index.ts': named }, 'src/lib')).toMatchObject({ client: 'server/db/index', clientExport: 'db' });
	});

	it('finds nothing without a schema, with a provider the adapter lacks, or without a module that imports PrismaClient', () => {
		expect(detectPrisma({ 'src/lib/server/prisma.ts': CLIENT }, 'src/lib')).toBeUndefined();
		expect(detectPrisma({ 'prisma/schema.prisma': SCHEMA('mysql'), 'src/lib/server/prisma.ts': CLIENT }, 'src/lib')).toBeUndefined();
		const drizzle = "import { drizzle } from 'drizzle-orm/better-sqlite3';\nexport const db = drizzle('x.db');\n";
		expect(detectPrisma({ 'prisma/schema.prisma': SCHEMA('sqlite'), 'src/lib/server/db/index.ts': drizzle }, 'src/lib')).toBeUndefined();
		expect(detectPrisma({ 'prisma/schema.prisma': SCHEMA('sqlite'), 'src/lib/server/prisma.ts': 'export const prisma = ' }, 'src/lib')).toBeUndefined();
	});

	it('reads a schema in several files (a folder the config names): the provider from any, the models to a file of their own', () => {
		const config = "import { defineConfig } from 'prisma/config';\nexport default defineConfig({ schema: 'prisma/schema' });\n";
		const files = {
			'prisma.config.ts': config,
			'prisma/schema/main.prisma': SCHEMA('postgresql'),
			'prisma/schema/post.prisma': 'model Post {\n  id Int @id\n}\n',
			'prisma/schema/auth.prisma': undefined,
			'src/lib/server/prisma.ts': CLIENT
		};
		expect(detectPrisma(files, 'src/lib')).toEqual({ schema: 'prisma/schema/auth.prisma', provider: 'postgresql', client: 'server/prisma', clientExport: 'prisma' });
		expect(detectPrisma({ ...files, 'prisma/schema/main.prisma': SCHEMA('mysql') }, 'src/lib')).toBeUndefined();
	});
});
