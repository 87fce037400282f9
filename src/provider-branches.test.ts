import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from './providers/index.js';

// Issue 27: a provider or feature lives in its own files (its descriptor in src/providers/, its
// runtime module(s), its page partials); no other code branches on its id or its type. This test
// reads src/, templates/ and runtime/ and fails on a comparison with a provider id or type string
// (`=== 'passkey'`, `case 'oauth':`, `.includes('idp')`) or a template test of one
// (`{{#if providers.passkey}}`) outside those files, unless ALLOWED lists it with the reason.
// On the release before the reshape it found 67 such lines (src/render.ts, plan.ts, answers.ts,
// init.ts, pipeline.ts, doctor/origin.ts, the page templates, the runtime's kit/actions/routes).

const root = fileURLToPath(new URL('..', import.meta.url));

/** Provider ids, and the provider types the runtime and the CLI know (`Provider['type']`). */
const IDS = PROVIDERS.map(({ id }) => id);
const TYPES = ['oauth', 'oidc', 'credentials', 'email', 'webauthn'];
const NAMES = [...new Set([...IDS, ...TYPES])].join('|');

/** Code that compares a value with one of the names, or picks a case by it. */
const CODE_BRANCH = new RegExp(String.raw`(?:[!=]==?\s*['"](?:${NAMES})['"]|['"](?:${NAMES})['"]\s*[!=]==?|case\s+['"](?:${NAMES})['"]\s*:|\.includes\(\s*['"](?:${NAMES})['"]\s*\))`);
/** A template that tests a provider: `{{#if providers.passkey}}`, `(eq type 'oauth')`. */
const TEMPLATE_BRANCH = new RegExp(String.raw`(?:providers\.(?:${IDS.join('|')})\b|\beq\s+\S+\s+['"](?:${NAMES})['"])`);

/**
 * A provider's own files, where its id may appear: its descriptor, its templates and partials,
 * its runtime module, and the runtime folder only it uses.
 */
function isOwnFile(file: string): boolean {
	const own = IDS.some(
		(id) =>
			file === `src/providers/${id}.ts` ||
			file.startsWith(`src/providers/${id}/`) ||
			file.startsWith(`templates/providers/${id}`) ||
			file === `runtime/server/auth/providers/${id}.ts`
	);
	return own;
}

/** Lines outside a provider's own files that may match, by file and text, each with its reason. Keep it short. */
const ALLOWED: Array<{ file: string; text: string; why: string }> = [
	{
		file: 'runtime/server/auth/oauth/client.ts',
		text: "provider.type === 'oidc'",
		why: 'oauth/ is the OAuth 2 / OpenID Connect protocol code that github, google, idp, oidc and social share; isOpenIdConnect is the one place that tells the two apart (discovery, ID token)'
	},
	{ file: 'runtime/server/auth/adapters/sqlite.ts', text: "column.name === 'email'", why: 'a column of the users table named email, not the provider' }
];

function walk(dir: string): string[] {
	return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('no code outside a provider\'s own files branches on its id or type', () => {
	const files = [...walk('src'), ...walk('templates'), ...walk('runtime')].filter(
		(file) => /\.(ts|js|svelte|hbs)$/.test(file) && !/\.test\.ts$/.test(file) && !file.startsWith('runtime/test/') && !file.startsWith('src/test/')
	);

	it('finds the files it reads', () => {
		expect(files).toContain('templates/routes/signin/+page.svelte.hbs');
		expect(files).toContain('src/plan.ts');
	});

	it('reports every branch outside the allow-list', () => {
		const found: string[] = [];
		for (const file of files) {
			if (isOwnFile(file)) continue;
			const pattern = file.endsWith('.hbs') ? TEMPLATE_BRANCH : CODE_BRANCH;
			readFileSync(path.join(root, file), 'utf8')
				.split('\n')
				.forEach((line, index) => {
					if (!pattern.test(line) && !(file.endsWith('.hbs') && CODE_BRANCH.test(line))) return;
					if (!ALLOWED.some((allowed) => allowed.file === file && line.includes(allowed.text))) found.push(`${file}:${index + 1}: ${line.trim()}`);
				});
		}
		expect(found).toEqual([]);
	});

	it('catches the shapes it names (the patterns are not vacuous)', () => {
		expect(CODE_BRANCH.test("if (provider.type === 'webauthn') {")).toBe(true);
		expect(CODE_BRANCH.test("answers.providers.includes('credentials')")).toBe(true);
		expect(CODE_BRANCH.test("case 'oauth':")).toBe(true);
		expect(TEMPLATE_BRANCH.test('{{#if providers.passkey}}')).toBe(true);
		expect(CODE_BRANCH.test("const id = 'passkey';")).toBe(false);
	});
});
