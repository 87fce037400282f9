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
		const { a, b } = region.conflict!;
		conflicts += 1;
		content +=
			`${CONFLICT_START}${labels.ours}\n${withFinalNewline(a.join(''))}` +
			`=======\n${withFinalNewline(b.join(''))}>>>>>>> ${labels.theirs}\n`;
	}
	return { content, conflicts };
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
