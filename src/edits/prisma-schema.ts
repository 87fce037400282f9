import { createRequire } from 'node:module';
import type { Block, getSchema, Model } from '@mrleebo/prisma-ast';
import { PACKAGE_ROOT } from '../assets.js';
import type { EditResult } from './hooks.js';

/** A model of create-auth's models file: its name, table, text, and each field's line. */
interface AuthModel {
	name: string;
	table: string | undefined;
	text: string;
	fields: Map<string, string>;
}

let parse: ((source: string) => Block[]) | undefined;

/**
 * prisma-ast's parser, loaded on first use. At load it searches the working directory and up for
 * a config of its own (lilconfig), reading each package.json there, and one that is not JSON
 * would throw: it is loaded from create-auth's own folder, synchronously, so that nothing else
 * runs while the working directory is not the user's.
 */
function prismaParser(): (source: string) => Block[] {
	if (parse) return parse;
	const cwd = process.cwd();
	process.chdir(PACKAGE_ROOT);
	let ast: typeof import('@mrleebo/prisma-ast');
	try {
		ast = createRequire(import.meta.url)('@mrleebo/prisma-ast');
	} finally {
		process.chdir(cwd);
	}
	const parser = new ast.PrismaParser({ nodeLocationTracking: 'none' });
	const options: Parameters<typeof getSchema>[1] = { parser, visitor: new (ast.VisitorClassFactory(parser))(parser) };
	return (parse = (source) => ast.getSchema(source, options).list);
}

/** The blocks of a Prisma schema; undefined when it does not parse. */
export function parsePrismaSchema(source: string): Block[] | undefined {
	const parseSchema = prismaParser();
	try {
		return parseSchema(source);
	} catch {
		return undefined;
	}
}

/** The table a model's `@@map("…")` names; undefined without one. */
function tableOf(model: Model): string | undefined {
	const map = model.properties.find((property) => property.type === 'attribute' && property.name === 'map');
	const value = map?.type === 'attribute' ? map.args?.[0]?.value : undefined;
	return typeof value === 'string' ? value.replace(/^"|"$/g, '') : undefined;
}

/** Where a top-level `model <name> {` block of `source` starts and its closing brace's line begins; valid Prisma has no brace at a line's start inside a block. */
function modelSpan(source: string, name: string): { start: number; close: number } | undefined {
	const open = new RegExp(`^[ \\t]*model[ \\t]+${name}[ \\t]*\\{`, 'm').exec(source);
	if (!open) return undefined;
	const close = /^[ \t]*\}/m.exec(source.slice(open.index + open[0].length));
	return close ? { start: open.index, close: open.index + open[0].length + close.index } : undefined;
}

/** Our models, each with its text and its fields' lines, from the models file. */
function authModels(models: string): { header: string; list: AuthModel[] } {
	const blocks = parsePrismaSchema(models)!.filter((block): block is Model => block.type === 'model');
	const list = blocks.map((model) => {
		const span = modelSpan(models, model.name)!;
		const text = models.slice(span.start, models.indexOf('\n', span.close) + 1 || models.length);
		const fields = new Map<string, string>();
		for (const property of model.properties) {
			if (property.type !== 'field') continue;
			const line = new RegExp(`^[ \\t]*${property.name}[ \\t].*$`, 'm').exec(text);
			if (line) fields.set(property.name, line[0]);
		}
		return { name: model.name, table: tableOf(model), text, fields };
	});
	return { header: models.slice(0, modelSpan(models, list[0]!.name)!.start).trimEnd(), list };
}

/**
 * Adds create-auth's models to the app's Prisma schema, so that `prisma db push` / `prisma
 * migrate dev` create and migrate the auth tables with the app's own:
 * - each model of `models` the schema lacks is appended after the last line; when it has none
 *   of them yet, the models file's header comment comes first;
 * - a model the schema has (an earlier run's) gains the fields of ours it lacks (a newer
 *   version's columns), each line inserted before the model's closing brace; fields and
 *   attributes the app added are kept.
 * Every other byte of the schema stays as it was. Idempotent.
 *
 * @param models create-auth's models file (`server/auth/adapters/prisma-schema/models.prisma`)
 * @param path the schema's app-relative path, for the manual step
 * @returns the new text; `pending` (and the text unchanged) when the schema does not parse, or
 *   holds a model of one of our names mapped to another table (the app's own)
 */
export function addAuthModels(source: string, models: string, path: string): EditResult {
	const blocks = parsePrismaSchema(source);
	if (!blocks) {
		return { content: source, pending: `Add the models of create-auth's prisma-schema/models.prisma to ${path}: it does not parse, so create-auth left it alone.` };
	}
	const { header, list } = authModels(models);
	const existing = new Map(blocks.filter((block): block is Model => block.type === 'model').map((model) => [model.name, model]));
	const clash = list.find((model) => existing.has(model.name) && tableOf(existing.get(model.name)!) !== model.table);
	if (clash) {
		return {
			content: source,
			pending: `${path} has a model ${clash.name} of its own (not mapped to ${clash.table}): rename it, then run npx create-auth regenerate to add the auth models.`
		};
	}
	let content = source;
	// Fields first, from the last model up, so that the offsets found stay valid.
	const grown = list
		.filter((model) => existing.has(model.name))
		.map((model) => {
			const has = new Set(existing.get(model.name)!.properties.flatMap((property) => (property.type === 'field' ? [property.name] : [])));
			return { span: modelSpan(content, model.name)!, lines: [...model.fields].filter(([name]) => !has.has(name)).map(([, line]) => `${line}\n`) };
		})
		.sort((a, b) => b.span.close - a.span.close);
	for (const { span, lines } of grown) content = content.slice(0, span.close) + lines.join('') + content.slice(span.close);
	const missing = list.filter((model) => !existing.has(model.name));
	if (missing.length === 0) return { content };
	const newline = content.length === 0 || content.endsWith('\n') ? '' : '\n';
	// The header before the first model we add; a file of its own (a schema folder's) starts with it.
	const intro = missing.length === list.length ? `${content.length > 0 ? '\n' : ''}${header}\n` : '';
	return { content: `${content}${newline}${intro}${missing.map((model) => `\n${model.text}`).join('')}` };
}
