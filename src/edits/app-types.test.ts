import { describe, expect, it } from 'vitest';
import { describeEditFixtures } from '../test/edit-fixtures.js';
import { addAppTypes } from './app-types.js';

describeEditFixtures('app-types', (source) => addAppTypes(source, '$lib/auth'));

const SV_APP_D_TS = `// See https://svelte.dev/docs/kit/types#app.d.ts
// for information about these interfaces
declare global {
	namespace App {
		// interface Error {}
		// interface Locals {}
		// interface PageData {}
		// interface PageState {}
		// interface Platform {}
	}
}

export {};
`;

describe('addAppTypes', () => {
	it("replaces sv's placeholder comments with typed Locals and PageData", () => {
		const { content, pending } = addAppTypes(SV_APP_D_TS, '$lib/auth');
		expect(pending).toBeUndefined();
		expect(content).toBe(`// See https://svelte.dev/docs/kit/types#app.d.ts
// for information about these interfaces
import type { Session } from '$lib/auth';

declare global {
	namespace App {
		// interface Error {}
		interface Locals {
			auth(): Promise<Session | null>;
		}
		interface PageData {
			session: Session | null;
		}
		// interface PageState {}
		// interface Platform {}
	}
}

export {};
`);
	});

	it('appends the member to interfaces the user already declared, keeping their members', () => {
		const source = `import type { User } from '$lib/types';

declare global {
	namespace App {
		interface Locals {
			user: User | null;
		}
		interface PageData {}
	}
}

export {};
`;
		const { content } = addAppTypes(source, '$lib/auth');
		expect(content).toContain('\t\tinterface Locals {\n\t\t\tuser: User | null;\n\t\t\tauth(): Promise<Session | null>;\n\t\t}');
		expect(content).toContain('\t\tinterface PageData {\n\t\t\tsession: Session | null;\n\t\t}');
		expect(content).toContain("import type { User } from '$lib/types';\nimport type { Session } from '$lib/auth';");
	});

	it('imports Session from #lib/auth/index.js in an app with subpath imports', () => {
		const { content } = addAppTypes(SV_APP_D_TS, '#lib/auth/index.js');
		expect(content).toContain("import type { Session } from '#lib/auth/index.js';\n\ndeclare global {");
	});

	it('adds no second Session import when the file already has one from another specifier', () => {
		const source = SV_APP_D_TS.replace('declare global', "import type { Session } from '$lib/auth/index';\n\ndeclare global");
		const { content } = addAppTypes(source, '#lib/auth/index.js');
		expect(content.match(/import type \{ Session \}/g)).toHaveLength(1);
		expect(content).toContain('auth(): Promise<Session | null>;');
	});

	it("imports ours as AuthSession where the file imports another library's Session (Better Auth's), and uses that name", () => {
		const source = "import type { User, Session } from 'better-auth';\n\n" + SV_APP_D_TS;
		const { content } = addAppTypes(source, '$lib/auth/index');
		expect(content).toContain("import type { User, Session } from 'better-auth';\nimport type { Session as AuthSession } from '$lib/auth/index';\n");
		expect(content).toContain('auth(): Promise<AuthSession | null>;');
		expect(content).toContain('session: AuthSession | null;');
		expect(addAppTypes(content, '$lib/auth/index').content).toBe(content);
	});

	it('keeps the local name of our Session when the file already imports it under another one', () => {
		const source = SV_APP_D_TS.replace('declare global', "import type { Session as OurSession } from '$lib/auth';\n\ndeclare global");
		const { content } = addAppTypes(source, '$lib/auth/index');
		expect(content.match(/import type/g)).toHaveLength(1);
		expect(content).toContain('auth(): Promise<OurSession | null>;');
	});

	it('is idempotent', () => {
		const once = addAppTypes(SV_APP_D_TS, '$lib/auth').content;
		expect(addAppTypes(once, '$lib/auth').content).toBe(once);
	});

	it('reports a manual step for a file without an App namespace', () => {
		const source = 'export {};\n';
		expect(addAppTypes(source, '$lib/auth')).toEqual({ content: source, pending: expect.stringMatching(/interface Locals/) });
	});
});
