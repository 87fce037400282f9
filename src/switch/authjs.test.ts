import { describe, expect, it } from 'vitest';
import { parseModule } from '../edits/ast.js';
import { GUIDE_CONFIG } from '../test/authjs-guide.js';
import { carryProperties, carrySessionOptions, readAuthjsConfig } from './authjs.js';

describe('readAuthjsConfig', () => {
	it("reads the guide's configuration: GitHub, JWT sessions, its callbacks carried as written", () => {
		expect(readAuthjsConfig(GUIDE_CONFIG)).toEqual({
			providers: ['github'],
			strategy: 'jwt',
			carried: [{ text: expect.stringMatching(/^callbacks: \{\n {4}jwt\(\{ token, profile \}\) \{[\s\S]*\n {2}\}$/), indent: '  ' }],
			trustHost: true,
			sessionOptions: [],
			unsupported: []
		});
	});

	it('names what it cannot carry: an adapter, another provider, provider options, other settings, lazy initialization', () => {
		const config = readAuthjsConfig(`import { SvelteKitAuth } from '@auth/sveltekit';
import Discord from '@auth/sveltekit/providers/discord';
import Google from '@auth/sveltekit/providers/google';
import PostgresAdapter from '@auth/pg-adapter';
export const { handle } = SvelteKitAuth({
	adapter: PostgresAdapter(pool),
	providers: [Discord, Google({ clientId: 'x', authorization: { params: { prompt: 'consent' } } }), { id: 'idp', type: 'oidc' }],
	pages: { signIn: '/login' },
	session: { strategy: 'database', maxAge: 3600 }
});
`)!;
		expect(config.strategy).toBe('database');
		expect(config.providers).toEqual(['google']);
		expect(config.adapter).toEqual({ package: '@auth/pg-adapter', target: 'postgres' });
		expect(config.unsupported).toEqual([
			"The provider discord: create-auth's switch carries GitHub and Google only, so far.",
			'The options given to Google(…) beyond clientId and clientSecret: the switch writes its own.',
			"The inline OpenID Connect provider's issuer is neither a string nor an environment variable."
		]);
		expect(config.carried).toEqual([{ text: "pages: { signIn: '/login' }", indent: '\t' }]);
		expect(config.sessionOptions).toEqual(['maxAge: 3600']);
		const prisma = readAuthjsConfig(`import { SvelteKitAuth } from '@auth/sveltekit';
import { PrismaAdapter } from '@auth/prisma-adapter';
export const { handle } = SvelteKitAuth({ adapter: PrismaAdapter(prisma), providers: [] });
`)!;
		expect(prisma.adapter).toBeUndefined();
		expect(prisma.unsupported).toEqual([
			'The adapter @auth/prisma-adapter: the switch copies the tables of @auth/pg-adapter and @auth/drizzle-adapter, so far.',
			'The option adapter: the switch does not carry it yet.'
		]);
		const lazy = readAuthjsConfig('import { SvelteKitAuth } from "@auth/sveltekit"\nexport const { handle } = SvelteKitAuth(async (event) => ({ providers: [] }))\n')!;
		expect(lazy.unsupported).toEqual([expect.stringContaining('lazy initialization')]);
	});

	it('carries pages create-auth has (signIn, signOut, verifyRequest as strings), and names any other', () => {
		const pages = (value: string) => readAuthjsConfig(`import { SvelteKitAuth } from '@auth/sveltekit';\nexport const { handle } = SvelteKitAuth({ providers: [], pages: ${value} });\n`)!;
		expect(pages("{ signIn: '/login', signOut: '/logout', verifyRequest: '/check-email' }")).toMatchObject({ carried: [{ text: "pages: { signIn: '/login', signOut: '/logout', verifyRequest: '/check-email' }" }], unsupported: [] });
		const refused = ['The option pages: the switch carries signIn, signOut, verifyRequest, each a path written as a string.'];
		expect(pages("{ signIn: '/login', error: '/auth-error' }")).toMatchObject({ carried: [], unsupported: refused });
		expect(pages('{ signIn: LOGIN_PATH }')).toMatchObject({ carried: [], unsupported: refused });
		expect(pages('customPages')).toMatchObject({ carried: [], unsupported: refused });
	});

	it('is undefined for a module that is not Auth.js configuration, or does not parse', () => {
		expect(readAuthjsConfig("import { SvelteKitAuth } from './auth';\nexport const x = SvelteKitAuth({});\n")).toBeUndefined();
		expect(readAuthjsConfig('import { SvelteKitAuth } from "@auth/sveltekit"\nexport const x = ')).toBeUndefined();
	});
});

describe('carryProperties', () => {
	it("adds the carried properties at the end of create-auth's config, re-indented to it", () => {
		const ours = "export const { handle } = SvelteKitAuth(\n\t{\n\t\tadapter,\n\t\tproviders: [github]\n\t},\n\t{ building }\n);\n";
		const carried = readAuthjsConfig(GUIDE_CONFIG)!.carried;
		const text = carryProperties(ours, carried);
		expect(text).toBe(
			"export const { handle } = SvelteKitAuth(\n\t{\n\t\tadapter,\n\t\tproviders: [github],\n\t\tcallbacks: {\n\t\t\tjwt({ token, profile }) {\n\t\t\t\tif (profile) token.login = profile.login\n\t\t\t\treturn token\n\t\t\t}\n\t\t}\n\t},\n\t{ building }\n);\n"
		);
		expect(parseModule(text)).toBeDefined();
	});

	it("adds Auth.js's session durations to create-auth's session object, and leaves a config without one as it is", () => {
		const ours = "export const { handle } = SvelteKitAuth({\n\tadapter,\n\tsession: { strategy: 'jwt' },\n\tproviders: [github]\n});\n";
		const { sessionOptions } = readAuthjsConfig(`import { SvelteKitAuth } from '@auth/sveltekit';
export const { handle } = SvelteKitAuth({ providers: [], session: { strategy: 'jwt', maxAge: 7 * 24 * 60 * 60, updateAge: 3600 } });
`)!;
		expect(sessionOptions).toEqual(['maxAge: 7 * 24 * 60 * 60', 'updateAge: 3600']);
		expect(carrySessionOptions(ours, sessionOptions)).toBe(ours.replace("session: { strategy: 'jwt' }", "session: { strategy: 'jwt', maxAge: 7 * 24 * 60 * 60, updateAge: 3600 }"));
		expect(carrySessionOptions('export const x = 1;\n', sessionOptions)).toBe('export const x = 1;\n');
	});

	it('refuses a session duration that is not a number written out (it could name what only Auth.js\'s module declares)', () => {
		const config = readAuthjsConfig(`import { SvelteKitAuth } from '@auth/sveltekit';
const WEEK = 604800;
export const { handle } = SvelteKitAuth({ providers: [], session: { maxAge: WEEK } });
`)!;
		expect(config.sessionOptions).toEqual([]);
		expect(config.unsupported).toEqual(['The option session: the switch does not carry it yet.']);
	});
});

