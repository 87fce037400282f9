import { describe, expect, it } from 'vitest';
import { reconcileFile, type FileVersions } from './reconcile.js';

const labels = { ours: 'yours', theirs: 'create-auth 2.0.0' };
const file = (versions: Partial<FileVersions>): FileVersions => ({
	path: 'src/routes/signin/+page.svelte',
	current: undefined,
	base: undefined,
	next: 'new\n',
	restore: false,
	labels,
	...versions
});

describe('reconcileFile (O = base, A = current, B = next)', () => {
	it('writes B for a file the tool never wrote and the app lacks', () => {
		expect(reconcileFile(file({}))).toMatchObject({ write: 'new\n', record: true, conflict: false });
	});

	it("leaves the user's own file alone and does not claim it", () => {
		expect(reconcileFile(file({ current: 'mine\n' }))).toMatchObject({ write: undefined, record: false, skipped: 'already exists; left as is' });
	});

	it('leaves a file the user deleted deleted, unless restored', () => {
		expect(reconcileFile(file({ base: 'old\n' }))).toMatchObject({ write: undefined, record: true, skipped: expect.stringContaining('--restore') });
		expect(reconcileFile(file({ base: 'old\n', restore: true }))).toMatchObject({ write: 'new\n' });
	});

	it('A = B: nothing; A = O: B; O = B: keeps A', () => {
		expect(reconcileFile(file({ base: 'old\n', current: 'new\n' }))).toMatchObject({ write: undefined, conflict: false });
		expect(reconcileFile(file({ base: 'old\n', current: 'old\n' }))).toMatchObject({ write: 'new\n', conflict: false });
		expect(reconcileFile(file({ base: 'same\n', current: 'mine\n', next: 'same\n' }))).toMatchObject({ write: undefined, conflict: false });
	});

	it('merges changes to different lines, and marks changes to the same lines as a conflict', () => {
		const base = 'a\nb\nc\nd\n';
		expect(reconcileFile(file({ base, current: 'A\nb\nc\nd\n', next: 'a\nb\nc\nD\n' }))).toMatchObject({ write: 'A\nb\nc\nD\n', conflict: false });
		const conflicted = reconcileFile(file({ base, current: 'a\nmine\nc\nd\n', next: 'a\ntheirs\nc\nd\n' }));
		expect(conflicted.conflict).toBe(true);
		expect(conflicted.write).toContain('<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> create-auth 2.0.0\n');
	});

	it('rewrites an untouched file whose new rendering differs only in layout (the app’s Prettier arrived)', () => {
		expect(reconcileFile(file({ base: 'f(a,b);\n', current: 'f(a,b);\n', next: 'f(a, b);\n' }))).toMatchObject({ write: 'f(a, b);\n' });
	});

	it('keeps the user’s layout of the same code (sv migrate, their formatter), and owns it', () => {
		const next = "import { A, B } from 'x';\n";
		const current = "import {\n\tA,\n\tB,\n} from 'x';\n";
		expect(reconcileFile(file({ base: "import { A } from 'x';\n", current, next }))).toMatchObject({ write: undefined, record: true });
		expect(reconcileFile(file({ base: next, current, next }))).toMatchObject({ write: undefined, record: true });
		expect(reconcileFile(file({ current, next }))).toMatchObject({ write: undefined, record: true });
	});

	it('with the answers changed, carries the difference over structurally onto the merged text', () => {
		const from = 'const a = 1;\n\nexport default [a];\n';
		const next = 'const a = 1;\n\nconst b = 2;\n\nexport default [a, b];\n';
		const current = 'const a = 1;\n\nconst mine = 3;\n\nexport default [a, mine];\n';
		const result = reconcileFile(file({ path: 'src/auth.ts', base: from, current, from, next }));
		expect(result).toMatchObject({ conflict: false, pending: [] });
		expect(result.write).toBe('const a = 1;\n\nconst mine = 3;\n\nconst b = 2;\n\nexport default [a, mine, b];\n');
	});
});
