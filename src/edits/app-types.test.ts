import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addAppTypes } from './app-types.js';
import { parseModule } from './ast.js';

/** `fixtures/app-types/<shape>.in.ts` → `.out.ts` (and `.pending.txt` for a file left alone); Session from `$lib/auth`. */
const FIXTURES = new URL('./fixtures/app-types/', import.meta.url);
const shapes = readdirSync(FIXTURES)
	.filter((file) => file.endsWith('.in.ts'))
	.map((file) => file.slice(0, -'.in.ts'.length));
const read = (file: string) => readFileSync(new URL(file, FIXTURES), 'utf8');
const readPending = (shape: string) => {
	try {
		return read(`${shape}.pending.txt`).trimEnd();
	} catch {
		return undefined;
	}
};

describe.each(shapes)('addAppTypes on fixtures/app-types/%s', (shape) => {
	const input = read(`${shape}.in.ts`);
	const output = read(`${shape}.out.ts`);

	it('writes the expected file byte for byte, or leaves it alone with the expected manual step', () => {
		expect(addAppTypes(input, '$lib/auth')).toEqual({ content: output, pending: readPending(shape) });
	});

	it('is idempotent: applied to its own output it changes nothing', () => {
		expect(addAppTypes(output, '$lib/auth').content).toBe(output);
	});

	it('writes a file that parses', () => {
		expect(parseModule(output)).toBeDefined();
	});
});

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

	it('is idempotent', () => {
		const once = addAppTypes(SV_APP_D_TS, '$lib/auth').content;
		expect(addAppTypes(once, '$lib/auth').content).toBe(once);
	});

	it('reports a manual step for a file without an App namespace', () => {
		const source = 'export {};\n';
		expect(addAppTypes(source, '$lib/auth')).toEqual({ content: source, pending: expect.stringMatching(/interface Locals/) });
	});
});
