import path from 'node:path';
import type { Node } from '@babel/types';
import { parseModule } from './edits/ast.js';
import { parsePrismaSchema } from './edits/prisma-schema.js';

/** The datasource providers the Prisma adapter runs on (see `PrismaProvider` of its runtime module). */
export const PRISMA_PROVIDERS = ['postgresql', 'sqlite'] as const;
export type PrismaProvider = (typeof PRISMA_PROVIDERS)[number];

/**
 * An app's Prisma setup, as Prisma 7's guides make it: a `schema.prisma` with a datasource, and
 * a lib module that exports the app's `PrismaClient`.
 */
export interface PrismaSetup {
	/**
	 * The schema file create-auth adds its models to, app-relative POSIX: the schema
	 * (`prisma/schema.prisma`), or in a schema folder a file of its own (`prisma/schema/auth.prisma`).
	 */
	schema: string;
	provider: PrismaProvider;
	/** The module exporting the client, lib-relative without extension (`server/prisma`). */
	client: string;
	/** The client's export there: a name (`prisma`, `db`), or `default`. */
	clientExport: string;
}

/**
 * Prisma's config files at the app's root, in the order Prisma 7.10 looks for them (`prisma init`
 * writes `prisma7.config.ts`; earlier 7.x, `prisma.config.ts`); `schema` may name the schema file.
 */
export const PRISMA_CONFIGS = ['prisma7.config.ts', 'prisma7.config.js', 'prisma7.config.mjs', 'prisma.config.ts', 'prisma.config.js', 'prisma.config.mjs'] as const;

/** Where Prisma looks for the schema when its config names none. */
export const DEFAULT_PRISMA_SCHEMA = 'prisma/schema.prisma';

/** Modules of the lib folder that commonly export the client, lib-relative without extension, in the order they are looked at. */
const CLIENT_MODULES = ['server/prisma', 'server/db', 'server/db/index', 'prisma', 'db', 'server/db/prisma'];

/** The exports that may be the client, in order of preference. */
const CLIENT_EXPORTS = ['prisma', 'db', 'client', 'default'];

/** Candidate client modules, app-relative (`src/lib/server/prisma.ts`, …, each as `.ts` and `.js`). */
export function prismaClientCandidates(libDir: string): string[] {
	return CLIENT_MODULES.flatMap((module) => [`${libDir}/${module}.ts`, `${libDir}/${module}.js`]);
}

/**
 * The schema the app's first Prisma config names (`schema: 'db/schema.prisma'`, a string
 * literal), else Prisma's default; app-relative POSIX. A name that does not end in `.prisma` is a
 * folder: a schema in several files, every `.prisma` file below it ({@link isPrismaSchemaFolder}).
 */
export function prismaSchemaPath(files: Record<string, string | undefined>): string {
	const config = PRISMA_CONFIGS.find((file) => files[file] !== undefined);
	const ast = config ? parseModule(files[config]!) : undefined;
	let schema: string | undefined;
	if (ast) {
		for (const node of ast.program.body.flatMap((statement) => objectsIn(statement))) {
			const property = node.properties.find(
				(p) => p.type === 'ObjectProperty' && !p.computed && ((p.key.type === 'Identifier' && p.key.name === 'schema') || (p.key.type === 'StringLiteral' && p.key.value === 'schema'))
			);
			if (property?.type === 'ObjectProperty' && property.value.type === 'StringLiteral') schema ??= property.value.value;
		}
	}
	return schema ? path.posix.normalize(schema.replace(/^\.\//, '')) : DEFAULT_PRISMA_SCHEMA;
}

/** Whether the schema path {@link prismaSchemaPath} gives is a folder of `.prisma` files. */
export const isPrismaSchemaFolder = (schema: string): boolean => !schema.endsWith('.prisma');

/** The file create-auth writes its models to in a schema that is a folder: one of its own. */
export const PRISMA_MODELS_FILE = 'auth.prisma';

/** The object literals at the top of a config module's statement (`export default defineConfig({ … })`). */
function objectsIn(statement: Node): Extract<Node, { type: 'ObjectExpression' }>[] {
	const found: Extract<Node, { type: 'ObjectExpression' }>[] = [];
	const visit = (node: Node | null | undefined): void => {
		if (!node) return;
		if (node.type === 'ObjectExpression') found.push(node);
		else if (node.type === 'ExportDefaultDeclaration') visit(node.declaration as Node);
		else if (node.type === 'CallExpression') node.arguments.forEach((argument) => visit(argument as Node));
		else if (node.type === 'TSSatisfiesExpression' || node.type === 'TSAsExpression') visit(node.expression);
		else if (node.type === 'VariableDeclaration') node.declarations.forEach((declaration) => visit(declaration.init));
	};
	visit(statement);
	return found;
}

/** The datasource provider of a schema, if it is one the adapter runs on. */
export function prismaProvider(schema: string): PrismaProvider | undefined {
	for (const block of parsePrismaSchema(schema) ?? []) {
		if (block.type !== 'datasource') continue;
		const provider = block.assignments.find((assignment) => assignment.type === 'assignment' && assignment.key === 'provider');
		const value = provider?.type === 'assignment' && typeof provider.value === 'string' ? provider.value.replace(/^"|"$/g, '') : undefined;
		return PRISMA_PROVIDERS.find((id) => id === value);
	}
	return undefined;
}

/**
 * How a module exports a Prisma Client: it must import `PrismaClient` (from the generated client
 * or `@prisma/client`), and export a name of {@link CLIENT_EXPORTS}; the first such export.
 */
function clientExportOf(source: string): string | undefined {
	const ast = parseModule(source);
	if (!ast) return undefined;
	const body = ast.program.body;
	const importsClient = body.some(
		(node) => node.type === 'ImportDeclaration' && node.specifiers.some((s) => s.type === 'ImportSpecifier' && s.imported.type === 'Identifier' && s.imported.name === 'PrismaClient')
	);
	if (!importsClient) return undefined;
	const exported = new Set<string>();
	for (const node of body) {
		if (node.type === 'ExportDefaultDeclaration') exported.add('default');
		if (node.type !== 'ExportNamedDeclaration') continue;
		if (node.declaration?.type === 'VariableDeclaration') {
			for (const declaration of node.declaration.declarations) if (declaration.id.type === 'Identifier') exported.add(declaration.id.name);
		}
		for (const specifier of node.specifiers) {
			if (specifier.type === 'ExportSpecifier') exported.add(specifier.exported.type === 'Identifier' ? specifier.exported.name : specifier.exported.value);
		}
	}
	return CLIENT_EXPORTS.find((name) => exported.has(name));
}

/**
 * The app's Prisma setup from its files: the schema ({@link prismaSchemaPath}) with a datasource
 * whose provider the adapter runs on (in a folder schema, in any of its files; create-auth's
 * models then go to a file of their own there, {@link PRISMA_MODELS_FILE}), and the first candidate module
 * ({@link prismaClientCandidates}) that imports `PrismaClient` and exports it.
 *
 * @param files app-relative path → text (`undefined`: absent): the configs, the schema (each
 *   `.prisma` file of a folder schema), the candidates
 * @param libDir the app's lib folder, app-relative (`src/lib`)
 * @returns undefined when the app has no schema, a provider the adapter does not support
 *   (MySQL, SQL Server, MongoDB, CockroachDB), or no client module create-auth can find
 */
export function detectPrisma(files: Record<string, string | undefined>, libDir: string): PrismaSetup | undefined {
	const configured = prismaSchemaPath(files);
	const folder = isPrismaSchemaFolder(configured);
	const sources = folder ? Object.keys(files).filter((file) => file.startsWith(`${configured}/`) && file.endsWith('.prisma')) : [configured];
	const provider = sources.map((file) => (files[file] === undefined ? undefined : prismaProvider(files[file]!))).find((found) => found !== undefined);
	if (!provider) return undefined;
	const schema = folder ? `${configured}/${PRISMA_MODELS_FILE}` : configured;
	for (const file of prismaClientCandidates(libDir)) {
		const clientExport = files[file] === undefined ? undefined : clientExportOf(files[file]!);
		if (clientExport) return { schema, provider, client: file.slice(libDir.length + 1).replace(/\.(ts|js)$/, ''), clientExport };
	}
	return undefined;
}
