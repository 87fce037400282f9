/**
 * The `oidc` provider's part of `create-auth switch` from Auth.js (issue 29): an OpenID Connect
 * provider Auth.js's config lists inline becomes this provider, with its id, name and settings.
 * `switch/authjs.ts` asks it; it lives here, with the provider (docs/architecture.md).
 */
import MagicString from 'magic-string';
import type { Expression, ImportDeclaration, ObjectExpression, ObjectProperty } from '@babel/types';
import { parse } from 'dotenv';
import { parseModule, propertyName, unwrapExpression, walk } from '../../edits/ast.js';
import type { EnvEntry } from '../../edits/env.js';

/** The settings of an OpenID Connect provider the switch carries, each with the variable create-auth's `oidc` provider reads it from. */
const SETTINGS = { issuer: 'AUTH_OIDC_ISSUER', clientId: 'AUTH_OIDC_ID', clientSecret: 'AUTH_OIDC_SECRET' } as const;
type Setting = keyof typeof SETTINGS;

/** Where Auth.js's config took a setting from: an environment variable, or a value written in the config. */
export type SettingSource = { env: string } | { value: string };

/**
 * An OpenID Connect provider Auth.js's config lists inline, as Auth.js documents a provider it has
 * no module for: `{ id: 'idp', name: 'Dev IdP', type: 'oidc', issuer, clientId, clientSecret }`.
 */
export interface InlineOidc {
	/** Its `id` (Auth.js's default: `oidc`): part of its callback URL `/auth/callback/<id>`, so kept. */
	id: string;
	/** Its `name`, the label of its button. */
	name?: string;
	settings: Record<Setting, SettingSource>;
}

/**
 * How Auth.js's module reads environment variables: the local name of `env` from
 * `$env/dynamic/private`, and the names imported from `$env/static/private` (local → variable).
 * `process.env.X` is always understood.
 */
export interface EnvReads {
	dynamic?: string;
	statics: Map<string, string>;
}

/** The {@link EnvReads} of a module's imports. */
export function envReadsOf(imports: readonly ImportDeclaration[]): EnvReads {
	const reads: EnvReads = { statics: new Map() };
	for (const node of imports) {
		for (const specifier of node.specifiers) {
			if (specifier.type !== 'ImportSpecifier' || specifier.imported.type !== 'Identifier') continue;
			if (node.source.value === '$env/dynamic/private' && specifier.imported.name === 'env') reads.dynamic = specifier.local.name;
			if (node.source.value === '$env/static/private') reads.statics.set(specifier.local.name, specifier.imported.name);
		}
	}
	return reads;
}

/**
 * Reads an inline provider object of Auth.js's `providers`.
 * @returns undefined when it is not `type: 'oidc'`; a sentence saying why it cannot be carried
 *   (another key, a setting that is neither a string nor an environment variable, no `issuer`);
 *   else the provider
 */
export function readInlineOidc(object: ObjectExpression, reads: EnvReads): InlineOidc | string | undefined {
	const properties = object.properties.filter((p): p is ObjectProperty => p.type === 'ObjectProperty');
	const value = (key: string) => {
		const property = properties.find((p) => propertyName(p) === key);
		return property ? unwrapExpression(property.value as Expression) : undefined;
	};
	const type = value('type');
	if (type?.type !== 'StringLiteral' || type.value !== 'oidc') return undefined;
	const known = new Set(['id', 'name', 'type', ...Object.keys(SETTINGS)]);
	if (properties.length !== object.properties.length || properties.some((p) => !known.has(propertyName(p) ?? ''))) {
		return 'The inline OpenID Connect provider has options beyond id, name, issuer, clientId and clientSecret: the switch writes its own.';
	}
	const id = value('id');
	const name = value('name');
	if ((id && id.type !== 'StringLiteral') || (name && name.type !== 'StringLiteral')) return "The inline OpenID Connect provider's id or name is not a string written out.";
	const settings: Partial<Record<Setting, SettingSource>> = {};
	for (const setting of Object.keys(SETTINGS) as Setting[]) {
		const source = settingSource(value(setting), reads);
		if (!source) return `The inline OpenID Connect provider's ${setting} is neither a string nor an environment variable.`;
		settings[setting] = source;
	}
	return { id: id?.type === 'StringLiteral' ? id.value : 'oidc', ...(name?.type === 'StringLiteral' ? { name: name.value } : {}), settings: settings as InlineOidc['settings'] };
}

/** A setting's source: a string literal, `env.X` (dynamic), `process.env.X`, or a name imported from `$env/static/private`. */
function settingSource(node: Expression | undefined, reads: EnvReads): SettingSource | undefined {
	if (!node) return undefined;
	if (node.type === 'StringLiteral') return { value: node.value };
	if (node.type === 'Identifier') return reads.statics.has(node.name) ? { env: reads.statics.get(node.name)! } : undefined;
	if (node.type !== 'MemberExpression' || node.computed || node.property.type !== 'Identifier') return undefined;
	const object = node.object;
	const fromDynamic = object.type === 'Identifier' && object.name === reads.dynamic;
	const fromProcess = object.type === 'MemberExpression' && object.object.type === 'Identifier' && object.object.name === 'process' && object.property.type === 'Identifier' && object.property.name === 'env';
	return fromDynamic || fromProcess ? { env: node.property.name } : undefined;
}

/**
 * The `.env` values create-auth's `oidc` provider reads (`AUTH_OIDC_ISSUER`, `AUTH_OIDC_ID`,
 * `AUTH_OIDC_SECRET`), from what Auth.js read: the value of its variable in the app's `.env`, or
 * the value written in its config. `unset` names the variables Auth.js read that `.env` does not
 * set (the host's environment, say): their new names must be set there.
 */
export function oidcEnvEntries(oidc: InlineOidc, envFile: string | undefined): { entries: EnvEntry[]; unset: Array<{ from: string; to: string }> } {
	const defined = parse(envFile ?? '');
	const entries: EnvEntry[] = [];
	const unset: Array<{ from: string; to: string }> = [];
	for (const [setting, key] of Object.entries(SETTINGS) as Array<[Setting, string]>) {
		const source = oidc.settings[setting];
		const value = 'value' in source ? source.value : defined[source.env];
		if (value === undefined || value === '') {
			if ('env' in source && source.env !== key) unset.push({ from: source.env, to: key });
			continue;
		}
		entries.push({ key, value, comment: `The ${setting} of the OpenID Connect provider ${oidc.id} (carried over from Auth.js).` });
	}
	return { entries, unset };
}

/**
 * Gives create-auth's `const oidc = OIDC({ … })` declaration the carried provider's `id` and
 * `name` (first among its options), so its callback URL stays `/auth/callback/<id>`, and says
 * that URL in the comment above it. The source unchanged when the id is `oidc` and there is no
 * name, or there is no such declaration.
 */
export function carryOidcIdentity(source: string, oidc: Pick<InlineOidc, 'id' | 'name'>): string {
	if (oidc.id === 'oidc' && oidc.name === undefined) return source;
	const ast = parseModule(source);
	let options: ObjectExpression | undefined;
	if (!ast) return source;
	walk(ast.program, (node) => {
		if (options || node.type !== 'VariableDeclarator' || node.id.type !== 'Identifier' || node.id.name !== 'oidc') return;
		const init = node.init && unwrapExpression(node.init);
		const first = init?.type === 'CallExpression' ? init.arguments[0] : undefined;
		if (first?.type === 'ObjectExpression' && first.properties.length > 0) options = first;
	});
	if (!options) return source;
	const first = options.properties[0]!;
	const indent = /^[ \t]*/.exec(source.slice(source.lastIndexOf('\n', first.start! - 1) + 1))![0];
	const quoted = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;
	const lines = [...(oidc.id !== 'oidc' ? [`id: ${quoted(oidc.id)}`] : []), ...(oidc.name !== undefined ? [`name: ${quoted(oidc.name)}`] : [])];
	const edit = new MagicString(source);
	edit.appendLeft(first.start!, lines.map((line) => `${line},\n${indent}`).join(''));
	return edit.toString().replace('/auth/callback/oidc`', `/auth/callback/${oidc.id}\``);
}
