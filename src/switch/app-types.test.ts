import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { addAppTypes } from '../edits/app-types.js';
import { removeLibraryTypes } from './app-types.js';

/** src/app.d.ts as `sv add drizzle better-auth` (sv 0.17.1) wrote it. */
const SV_BETTER_AUTH = await readFile(new URL('../../e2e/fixtures/kit2-better-auth/src/app.d.ts', import.meta.url), 'utf8');
/** src/app.d.ts as `sv add drizzle lucia` (sv 0.11.3) wrote it: members typed by inline imports of its module, the last without `;`. */
const SV_LUCIA = await readFile(new URL('../../e2e/fixtures/kit2-lucia/src/app.d.ts', import.meta.url), 'utf8');

describe('removeLibraryTypes', () => {
	it("takes Better Auth's type import and the Locals members typed with it out of sv's app.d.ts, and nothing else", () => {
		const result = removeLibraryTypes(SV_BETTER_AUTH, ['better-auth']);
		expect(result.removed).toEqual(['user', 'session']);
		expect(result.content).toBe(SV_BETTER_AUTH.replace("import type { User, Session } from 'better-auth';\n\n", '').replace('interface Locals { user?: User; session?: Session }', 'interface Locals {}'));
		// create-auth's own edit then types Locals with its Session under its own name.
		const typed = addAppTypes(result.content, '$lib/auth').content;
		expect(typed).toContain('auth(): Promise<Session | null>;');
		expect(typed).not.toContain('AuthSession');
	});

	it("takes the Locals members sv's Lucia add-on types with inline imports of its module out, line and all", () => {
		const result = removeLibraryTypes(SV_LUCIA, ['$lib/server/auth']);
		expect(result.removed).toEqual(['user', 'session']);
		expect(result.content).toBe(SV_LUCIA.replace(/\t\t\tuser: import[^\n]*\n\t\t\tsession: import[^\n]*\n/, ''));
		expect(result.content).toContain('\t\tinterface Locals {\n\t\t}\n');
		expect(removeLibraryTypes(SV_LUCIA, ['$lib/server/other']).content).toBe(SV_LUCIA);
	});

	it('removes members one a line, with their separators, and keeps the app\'s own', () => {
		const source = `import type { Session as BetterSession } from 'better-auth/types';
import type { Theme } from '$lib/theme';

declare global {
	namespace App {
		interface Locals {
			session?: BetterSession;
			theme: Theme;
		}
	}
}

export {};
`;
		const result = removeLibraryTypes(source, ['better-auth']);
		expect(result.content).toBe(`import type { Theme } from '$lib/theme';

declare global {
	namespace App {
		interface Locals {
			theme: Theme;
		}
	}
}

export {};
`);
	});

	it('leaves a file using the types elsewhere for the user, with the manual step', () => {
		const source = "import type { User } from 'better-auth';\ndeclare global { namespace App { interface PageData { users: User[] } } }\nexport type Admin = User & { admin: true };\n";
		const result = removeLibraryTypes(source, ['better-auth']);
		expect(result.content).toBe(source);
		expect(result.pending).toContain('used beyond App.Locals');
	});

	it('returns a file that imports nothing of the library unchanged', () => {
		const source = 'declare global { namespace App {} }\nexport {};\n';
		expect(removeLibraryTypes(source, ['better-auth'])).toEqual({ content: source, removed: [] });
	});
});
