import { describe, expect, it } from 'vitest';
import { addTokenTypes } from './token-types.js';

const MODULES = { session: '$lib/auth/types', jwt: '$lib/server/auth/config' };
const SV_APP_TYPES = `// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
	namespace App {
		// interface Locals {}
	}
}

export {};
`;

describe('addTokenTypes', () => {
	it("augments Session and JWT before sv's export {}, leaving the rest byte-identical", () => {
		const { content, pending } = addTokenTypes(SV_APP_TYPES, MODULES);
		expect(pending).toBeUndefined();
		const [before, after] = content.split("// The idp tokens");
		expect(before).toBe(SV_APP_TYPES.replace('export {};\n', ''));
		expect(after).toMatch(/\ndeclare module '\$lib\/auth\/types' \{\n\tinterface Session \{\n\t\taccess_token\?: string;/);
		expect(after).toMatch(/declare module '\$lib\/server\/auth\/config' \{\n\tinterface JWT \{\n(\t\t.+\n)+\t\}\n\}\n\nexport \{\};\n$/);
	});

	it('keeps the refresh token out of Session, and in JWT', () => {
		const { content } = addTokenTypes(SV_APP_TYPES, MODULES);
		const session = content.slice(content.indexOf('interface Session'), content.indexOf('interface JWT'));
		const jwt = content.slice(content.indexOf('interface JWT'));
		expect(session).not.toContain('refresh_token?:');
		expect(session).toContain("error?: 'RefreshTokenError';");
		expect(jwt).toContain('refresh_token?: string;');
	});

	it('appends to a file without export {}, and is idempotent', () => {
		const source = 'declare global {\n\tnamespace App {}\n}\n';
		const once = addTokenTypes(source, MODULES).content;
		expect(once.startsWith(`${source}\n// The idp tokens`)).toBe(true);
		expect(addTokenTypes(once, MODULES).content).toBe(once);
	});

	it('leaves a file that already augments either module as it is', () => {
		const source = `${SV_APP_TYPES}declare module '$lib/server/auth/config' {\n\tinterface JWT {\n\t\tmine: string;\n\t}\n}\n`;
		expect(addTokenTypes(source, MODULES)).toEqual({ content: source });
	});

	it('reports a manual step for a file that does not parse, changing nothing', () => {
		const source = 'declare global { namespace App {';
		const result = addTokenTypes(source, MODULES);
		expect(result.content).toBe(source);
		expect(result.pending).toContain('$lib/auth/types');
	});
});
