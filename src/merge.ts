import { createRequire } from 'node:module';

/** The outcome of {@link mergeText}. */
export interface TextMerge {
	/** The merged text; where both sides changed the same lines, both versions between markers. */
	content: string;
	/** Number of conflicting regions (0: a clean merge). */
	conflicts: number;
}

/** The names printed on the conflict markers, as git prints branch names. */
export interface MergeLabels {
	/** The text on disk: the user's version. */
	ours: string;
	/** The text the tool renders now. */
	theirs: string;
}

/** The opening marker of a conflict region (a line starting with it means the conflict is unresolved). */
const CONFLICT_START = '<<<<<<< ';

/**
 * Three-way merge of text, line by line (the diff3 algorithm of `node-diff3`): the changes from
 * `base` to `ours` and from `base` to `theirs` are both applied. Where both changed the same
 * lines differently, the region keeps both versions between git-style markers:
 *
 * ```
 * <<<<<<< {labels.ours}
 * …ours…
 * =======
 * …theirs…
 * >>>>>>> {labels.theirs}
 * ```
 *
 * A region where `ours` already holds the change `theirs` makes, laid out its own way and perhaps
 * with new lines of the user's around it, is no conflict: it keeps `ours`. Nor is a region where
 * the two sides changed different words of the same lines: the region is merged again word by
 * word ({@link mergeWords}), and only words both sides changed differently stay a conflict.
 *
 * Lines keep their own endings (`\n` or `\r\n`), so a clean merge of CRLF texts stays CRLF; a
 * side whose last line has no newline gets one before a marker.
 */
export function mergeText(base: string, ours: string, theirs: string, labels: MergeLabels): TextMerge {
	// Loaded on first use: a run that merges nothing never pays for it.
	const { diff3Merge } = createRequire(import.meta.url)('node-diff3') as typeof import('node-diff3');
	const regions = diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs), { excludeFalseConflicts: true });
	let content = '';
	let conflicts = 0;
	for (const region of regions) {
		if (region.ok) {
			content += region.ok.join('');
			continue;
		}
		const { a, o, b } = region.conflict!;
		// Both sides made the same change, laid out differently (a formatter, sv migrate), the user
		// perhaps adding lines of their own around it: the user's text already holds the tool's.
		if (holdsTheirs(a, o, b)) {
			content += a.join('');
			continue;
		}
		// The two changes touch the same lines but not the same words (sv migrate moved an import to
		// `#lib`, the new version added a name to it): both are applied.
		const words = mergeWords(diff3Merge, a, o, b);
		if (words !== undefined) {
			content += words;
			continue;
		}
		conflicts += 1;
		content +=
			`${CONFLICT_START}${labels.ours}\n${withFinalNewline(a.join(''))}` +
			`=======\n${withFinalNewline(b.join(''))}>>>>>>> ${labels.theirs}\n`;
	}
	return { content, conflicts };
}

/**
 * Whether two texts differ only in layout: runs of whitespace, whitespace next to punctuation,
 * a trailing comma before a closing bracket (`{ a, b }` and `{\n\ta,\n\tb,\n}` are the same
 * code). Keeping the user's text when it is the same code is never a loss; only a change of
 * whitespace inside a string literal could go unseen, and that keeps the user's version.
 */
export function sameCode(a: string, b: string): boolean {
	const normalize = (text: string) =>
		text
			.replace(/\s+/g, ' ')
			.replace(/ ?([{}()[\],;:=]) ?/g, '$1')
			.replace(/,([}\])])/g, '$1')
			.trim();
	return a === b || normalize(a) === normalize(b);
}

/** Regions longer than this (lines) are not searched for the tool's change: they stay conflicts. */
const HOLDS_THEIRS_MAX_LINES = 200;

/**
 * Whether a conflict region's `ours` already makes the change `theirs` makes: some run of its
 * lines is the same code as `theirs` ({@link sameCode}), and its other lines are the user's own,
 * new lines (blank, or matching no line of the base region: a base line `theirs` dropped and
 * `ours` kept keeps the region a conflict).
 */
function holdsTheirs(ours: string[], base: string[], theirs: string[]): boolean {
	if (ours.length > HOLDS_THEIRS_MAX_LINES) return false;
	const theirsText = theirs.join('');
	for (let start = 0; start <= ours.length; start += 1) {
		for (let end = start; end <= ours.length; end += 1) {
			if (!sameCode(ours.slice(start, end).join(''), theirsText)) continue;
			const added = [...ours.slice(0, start), ...ours.slice(end)].filter((line) => line.trim() !== '');
			if (added.every((line) => !base.some((old) => sameCode(old, line)))) return true;
		}
	}
	return false;
}

/**
 * The words of code, whose concatenation is the text: runs of whitespace, runs of identifier and
 * path characters (`#lib/server/auth/index.js` is one word), or one other character.
 */
const WORD = /\s+|[\w$#@./-]+|[^\s\w$#@./-]/g;

/**
 * A conflict region merged again word by word (the same diff3, on {@link WORD}s): the text when
 * no word was changed differently by both sides, else undefined (the region stays a conflict).
 * Regions longer than {@link HOLDS_THEIRS_MAX_LINES} lines are not tried.
 */
function mergeWords(diff3Merge: typeof import('node-diff3').diff3Merge, ours: string[], base: string[], theirs: string[]): string | undefined {
	if (Math.max(ours.length, base.length, theirs.length) > HOLDS_THEIRS_MAX_LINES) return undefined;
	const words = (lines: string[]) => lines.join('').match(WORD) ?? [];
	const regions = diff3Merge(words(ours), words(base), words(theirs), { excludeFalseConflicts: true });
	if (regions.some((region) => !region.ok)) return undefined;
	return regions.map((region) => region.ok!.join('')).join('');
}

/** Whether a text still holds a conflict marker line written by {@link mergeText} (or git). */
export function hasConflictMarkers(text: string): boolean {
	return text.split('\n').some((line) => line.startsWith(CONFLICT_START));
}

/** Splits after each newline, so that joining the lines gives back the exact text. */
function splitLines(text: string): string[] {
	return text === '' ? [] : text.split(/(?<=\n)/);
}

function withFinalNewline(text: string): string {
	return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
