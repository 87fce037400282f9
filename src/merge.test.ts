import { describe, expect, it } from 'vitest';
import { hasConflictMarkers, mergeText, sameCode } from './merge.js';

const labels = { ours: 'yours', theirs: 'create-auth 0.2.0' };

describe('mergeText', () => {
	it('applies both sides when they changed different lines', () => {
		const base = 'a\nb\nc\nd\ne\n';
		const ours = 'a\nB (mine)\nc\nd\ne\n';
		const theirs = 'a\nb\nc\nd\nE (new version)\n';
		expect(mergeText(base, ours, theirs, labels)).toEqual({ content: 'a\nB (mine)\nc\nd\nE (new version)\n', conflicts: 0 });
	});

	it('takes a change both sides made alike once, without a conflict', () => {
		const merged = mergeText('a\nb\n', 'a\nX\n', 'a\nX\n', labels);
		expect(merged).toEqual({ content: 'a\nX\n', conflicts: 0 });
	});

	it('keeps both versions between markers naming both sides where both changed the same lines', () => {
		const merged = mergeText('a\nb\nc\n', 'a\nmine\nc\n', 'a\ntheirs\nc\n', labels);
		expect(merged.conflicts).toBe(1);
		expect(merged.content).toBe('a\n<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> create-auth 0.2.0\nc\n');
		expect(hasConflictMarkers(merged.content)).toBe(true);
	});

	it('keeps CRLF line endings and gives a last line without newline one before a marker', () => {
		expect(mergeText('a\r\nb\r\nc\r\n', 'A\r\nb\r\nc\r\n', 'a\r\nb\r\nC\r\n', labels).content).toBe('A\r\nb\r\nC\r\n');
		const merged = mergeText('x', 'mine', 'theirs', labels);
		expect(merged.content).toBe('<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> create-auth 0.2.0\n');
	});

	it('merges word by word where both sides changed the same line in different places', () => {
		// sv migrate moved the import to #lib; the new version added a name to it; the user kept a line of theirs.
		const base = "import { requireUser } from '$lib/server/auth';\nexport const load = () => requireUser();\n";
		const ours = "import { requireUser } from '#lib/server/auth/index.js';\nexport const load = () => requireUser();\n";
		const theirs = "import { addressProvenNotice, requireUser } from '$lib/server/auth';\nexport const load = () => [requireUser(), addressProvenNotice()];\n";
		expect(mergeText(base, ours, theirs, labels)).toEqual({
			content: "import { addressProvenNotice, requireUser } from '#lib/server/auth/index.js';\nexport const load = () => [requireUser(), addressProvenNotice()];\n",
			conflicts: 0
		});
	});

	it('still marks a line whose same word both sides changed differently', () => {
		const merged = mergeText("import { a } from '$lib/x';\n", "import { a } from '#lib/x.js';\n", "import { a } from '$lib/y';\n", labels);
		expect(merged.conflicts).toBe(1);
	});

	it('hasConflictMarkers looks for a marker at the start of a line only', () => {
		expect(hasConflictMarkers('const a = "<<<<<<< not a marker";\n')).toBe(false);
		expect(hasConflictMarkers('ok\n')).toBe(false);
	});
});

describe('sameCode', () => {
	it('ignores layout only', () => {
		expect(sameCode('f(a, b);\n', 'f(\n\ta,\n\tb\n);\n')).toBe(true);
		expect(sameCode('f(a, b);\n', 'f(a, c);\n')).toBe(false);
		expect(sameCode('return x;', 'returnx;')).toBe(false);
	});
});

describe('mergeText where both sides made the same change', () => {
	const labels = { ours: 'yours', theirs: 'create-auth 2.0.0' };
	// sv migrate rewrites src/auth.ts's environment import over several lines; the new version
	// renders the same import on one; the user also added a line of their own.
	const base = "import { env } from '$env/dynamic/private';\n\nexport const auth = make(env.AUTH_SECRET);\n";
	const ours = "import {\n\tAUTH_SECRET\n} from '$app/env/private';\n\nexport const auth = make(AUTH_SECRET);\n\nexport const mine = 1;\n";
	const theirs = "import { AUTH_SECRET } from '$app/env/private';\n\nexport const auth = make(AUTH_SECRET);\n";

	it('keeps the user\'s layout of a change that is the same code, and the user\'s own lines, without a conflict', () => {
		expect(mergeText(base, ours, theirs, labels)).toEqual({ content: ours, conflicts: 0 });
	});

	it('still marks a region where the user kept a base line the tool dropped', () => {
		const merged = mergeText('keep();\ndrop();\nold();\n', 'keep();\ndrop();\nnew();\nmine();\n', 'keep();\nnew();\n', labels);
		expect(merged.conflicts).toBe(1);
	});

	it('still marks a region where the two changes differ in code', () => {
		const other = theirs.replace('AUTH_SECRET }', 'AUTH_SECRET, AUTH_URL }');
		const merged = mergeText(base, ours, other, labels);
		expect(merged.conflicts).toBe(1);
		expect(hasConflictMarkers(merged.content)).toBe(true);
	});
});
