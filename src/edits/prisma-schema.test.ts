import { readFileSync } from 'node:fs';
import { getSchema } from '@mrleebo/prisma-ast';
import { describe, expect, it } from 'vitest';
import { addAuthModels } from './prisma-schema.js';

const MODELS = readFileSync(new URL('../../runtime/server/auth/adapters/prisma-schema/models.prisma', import.meta.url), 'utf8');

// An app's schema as Prisma 7's `prisma init` and the SvelteKit guide leave it.
const SCHEMA = `generator client {
  provider = "prisma-client"
  output   = "../src/generated/prisma"
}

datasource db {
  provider = "sqlite"
}

// The app's own model.
model Post {
  id    Int    @id @default(autoincrement())
  title String
}
`;

const modelNames = (source: string) => getSchema(source).list.flatMap((block) => (block.type === 'model' ? [block.name] : []));

describe('addAuthModels', () => {
	it("appends every auth model after the app's schema, which stays byte for byte", () => {
		const { content, pending } = addAuthModels(SCHEMA, MODELS, 'prisma/schema.prisma');
		expect(pending).toBeUndefined();
		expect(content.startsWith(SCHEMA)).toBe(true);
		expect(content.slice(SCHEMA.length)).toBe(`\n${MODELS}`);
		expect(modelNames(content)).toEqual(['Post', 'AuthUser', 'AuthAccount', 'AuthSession', 'AuthVerificationToken', 'AuthAuthenticator', 'AuthTwoFactor', 'AuthRecoveryCode']);
	});

	it('is idempotent, and ends a last line that has no newline', () => {
		const once = addAuthModels(SCHEMA.trimEnd(), MODELS, 'schema.prisma').content;
		expect(once).toContain('  title String\n}\n\n// create-auth:');
		expect(addAuthModels(once, MODELS, 'schema.prisma')).toEqual({ content: once });
	});

	it("adds a newer version's fields and models to an earlier run's, keeping what the app added to them", () => {
		// An earlier version: AuthUser without sessionVersion, no two-factor models; the app has
		// given AuthUser a relation of its own.
		const earlier = addAuthModels(SCHEMA, MODELS, 'schema.prisma')
			.content.replace(/^ {2}sessionVersion .*\n/m, '')
			.replace(/\nmodel AuthTwoFactor \{[^}]*\}\n/, '')
			.replace(/\nmodel AuthRecoveryCode \{[^}]*\}\n/, '')
			.replace('  twoFactor      AuthTwoFactor?\n  recoveryCodes  AuthRecoveryCode[]\n', '')
			.replace('  authenticators AuthAuthenticator[]\n', '  authenticators AuthAuthenticator[]\n  posts          Post[]\n');
		expect(modelNames(earlier)).not.toContain('AuthTwoFactor');
		const { content, pending } = addAuthModels(earlier, MODELS, 'schema.prisma');
		expect(pending).toBeUndefined();
		const user = /model AuthUser \{[^}]*\}/.exec(content)![0];
		expect(user).toContain('  posts          Post[]\n');
		expect(user).toMatch(/^ {2}sessionVersion +Int +@default\(0\)$/m);
		expect(user).toMatch(/^ {2}twoFactor +AuthTwoFactor\?$/m);
		expect(modelNames(content).slice(-2)).toEqual(['AuthTwoFactor', 'AuthRecoveryCode']);
		// Everything before the auth models is the app's, untouched; the result parses.
		expect(content.startsWith(SCHEMA)).toBe(true);
		expect(content.match(/\/\/ create-auth: users/g)).toHaveLength(1);
		expect(addAuthModels(content, MODELS, 'schema.prisma')).toEqual({ content });
	});

	it("starts a file of its own (a schema folder's) with the header, no blank line first", () => {
		expect(addAuthModels('', MODELS, 'prisma/schema/auth.prisma')).toEqual({ content: MODELS });
	});

	it('leaves a schema that does not parse alone, with the manual step', () => {
		const broken = 'model Post {\n  id Int @id\n';
		expect(addAuthModels(broken, MODELS, 'prisma/schema.prisma')).toEqual({
			content: broken,
			pending: expect.stringContaining('models.prisma to prisma/schema.prisma: it does not parse')
		});
	});

	it("refuses to add fields to an app's own model of one of our names", () => {
		const own = `${SCHEMA}\nmodel AuthSession {\n  id Int @id\n}\n`;
		expect(addAuthModels(own, MODELS, 'prisma/schema.prisma')).toEqual({
			content: own,
			pending: expect.stringContaining('has a model AuthSession of its own (not mapped to auth_sessions)')
		});
	});
});
