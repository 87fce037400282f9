import { describe, expect, it } from 'vitest';
import { parseModule } from '../../edits/ast.js';
import { readAuthjsConfig } from '../../switch/authjs.js';
import { GUIDE_CONFIG, GUIDE_CREDENTIALS } from '../../test/authjs-guide.js';
import { authjsAuthorizeModule, carryAuthjsAuthorize } from './from-authjs.js';

/** The guide's src/auth.ts with its Credentials provider beside GitHub. */
const GUIDE_WITH_CREDENTIALS = GUIDE_CONFIG.replace('import GitHub from "@auth/sveltekit/providers/github"\n', `import GitHub from "@auth/sveltekit/providers/github"\n${GUIDE_CREDENTIALS.imports}\n${GUIDE_CREDENTIALS.declarations}`).replace(
	'providers: [GitHub],',
	`providers: [\n    GitHub,\n    ${GUIDE_CREDENTIALS.provider}\n  ],`
);

const RUNTIME = { index: '$lib/server/auth', passwords: '$lib/server/auth/passwords' };

/** An Auth.js config whose only provider is `Credentials(<options>)`, with `header` above it. */
const withCredentials = (options: string, header = '') =>
	`import { SvelteKitAuth } from '@auth/sveltekit';\nimport Credentials from '@auth/sveltekit/providers/credentials';\n${header}\nexport const { handle } = SvelteKitAuth({ providers: [Credentials(${options})] });\n`;

describe('readAuthjsCredentials (through readAuthjsConfig)', () => {
	it("reads the guide's Credentials: its authorize as written, the import it uses (only that name), its error class declared above", () => {
		const config = readAuthjsConfig(GUIDE_WITH_CREDENTIALS)!;
		expect(config.unsupported).toEqual([]);
		expect(config.providers).toEqual(['github', 'credentials']);
		expect(config.credentials).toEqual({
			authorize: expect.stringMatching(/^async \(credentials\) => \{\n {8}const user = await getUserFromDb\(credentials\.email as string[\s\S]*return user\n {6}\}$/),
			uses: ["import { getUserFromDb } from '$lib/server/users';", 'class InvalidLoginError extends CredentialsSignin {\n  code = "Invalid identifier or password"\n}'],
			errors: ['CredentialsSignin']
		});
	});

	it('carries a method, the declarations it reaches through other declarations, and only the names it uses of an import', () => {
		const header = `import { z } from 'zod';\nimport { db, unused } from './lib/db';\nimport * as bcrypt from 'bcryptjs';\nconst schema = z.object({ email: z.string() });\nfunction parse(input: unknown) { return schema.parse(input); }\nconst other = 1;`;
		const config = readAuthjsConfig(withCredentials(`{ credentials: { email: {}, password: {} }, async authorize(input) { const { email } = parse(input); const user = await db.find(email); return user && bcrypt.compareSync(String(input.password), user.hash) ? user : null; } }`, header))!;
		expect(config.unsupported).toEqual([]);
		expect(config.credentials?.authorize).toMatch(/^async function \(input\) \{ const \{ email \} = parse\(input\);/);
		expect(config.credentials?.uses).toEqual([
			"import { z } from 'zod';",
			"import { db } from './lib/db';",
			"import * as bcrypt from 'bcryptjs';",
			'const schema = z.object({ email: z.string() });',
			'function parse(input: unknown) { return schema.parse(input); }'
		]);
	});

	it('says why it cannot carry other fields, other options, an authorize it cannot read, or other Auth.js imports it uses', () => {
		const unsupported = (options: string, header?: string) => readAuthjsConfig(withCredentials(options, header))!.unsupported;
		expect(unsupported('{ credentials: { username: {}, password: {} }, authorize: async () => null }')).toEqual([expect.stringMatching(/fields are not email and password/)]);
		expect(unsupported('{ id: "login", credentials: { email: {}, password: {} }, authorize: async () => null }')).toEqual([expect.stringMatching(/options beyond credentials and authorize/)]);
		expect(unsupported('{ credentials: { email: {}, password: {} }, authorize: checkPassword }')).toEqual(["Credentials(…)'s authorize is not a function written there."]);
		expect(unsupported('options')).toEqual([expect.stringMatching(/not given an object literal/)]);
		const twice = readAuthjsConfig(withCredentials('{ credentials: { email: {}, password: {} }, authorize: async () => null }), Credentials({ credentials: { email: {}, password: {} }, authorize: async () => null }'))!;
		expect(twice).toMatchObject({ providers: ['credentials'], unsupported: ['A second Credentials provider: the switch carries one, so far.'] });
		expect(unsupported('{ credentials: { email: {}, password: {} }, authorize: async () => { await encode({}); return null } }', "import { encode } from '@auth/core/jwt';")).toEqual([
			"Credentials(…)'s authorize uses encode of @auth/core/jwt, which create-auth has no counterpart of."
		]);
	});
});

describe('authjsAuthorizeModule', () => {
	it('writes the carried authorize as a module of its own, typed by PreviousAuthorize, with what it uses and the error class from the runtime', () => {
		const credentials = readAuthjsConfig(GUIDE_WITH_CREDENTIALS)!.credentials!;
		const module = authjsAuthorizeModule(credentials, RUNTIME, true);
		expect(module).toContain("import type { PreviousAuthorize } from '$lib/server/auth/passwords';\nimport { CredentialsSignin } from '$lib/server/auth';\nimport { getUserFromDb } from '$lib/server/users';\n\nclass InvalidLoginError");
		expect(module).toContain('export const authorize: PreviousAuthorize = async (credentials) => {');
		expect(parseModule(module)).toBeDefined();
		const js = authjsAuthorizeModule({ authorize: 'async () => null', uses: [], errors: [] }, RUNTIME, false);
		expect(js).toContain("/** @type {import('$lib/server/auth/passwords').PreviousAuthorize} */\nexport const authorize = async () => null;");
		expect(js).not.toContain('import type');
	});
});

describe('carryAuthjsAuthorize', () => {
	const generated = `import { authorizeWithPassword } from '$lib/server/auth/passwords';
import Credentials from '$lib/server/auth/providers/credentials';

const credentials = Credentials({
	credentials: { email: { label: 'Email', type: 'email' } },
	authorize: (fields) => authorizeWithPassword(adapter, fields)
});
`;

	it("gives create-auth's authorizeWithPassword the carried authorize and the request, imported from its module, with a comment", () => {
		expect(carryAuthjsAuthorize(generated, true)).toBe(`import { authorizeWithPassword } from '$lib/server/auth/passwords';
import Credentials from '$lib/server/auth/providers/credentials';
import { authorize as authjsAuthorize } from './authjs-authorize';

const credentials = Credentials({
	credentials: { email: { label: 'Email', type: 'email' } },
	// An address create-auth has no password for yet is checked by Auth.js's authorize (src/authjs-authorize.ts), once.
	authorize: (fields, request) => authorizeWithPassword(adapter, fields, { previous: authjsAuthorize, request })
});
`);
	});

	it('leaves a module without the call as it is, and refuses to shadow a name the module has', () => {
		expect(carryAuthjsAuthorize('const x = 1;\n', true)).toBe('const x = 1;\n');
		expect(() => carryAuthjsAuthorize(`const authjsAuthorize = 1;\n${generated}`, true)).toThrow(expect.objectContaining({ code: 'E_SWITCH_BLOCKED' }));
	});
});
