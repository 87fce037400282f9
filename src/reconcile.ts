import { applyModuleDelta } from './edits/module-delta.js';
import { mergeText, sameCode, type MergeLabels, type TextMerge } from './merge.js';

/** One generated file, as {@link reconcileFile} sees it. */
export interface FileVersions {
	/** App-relative path, for messages. */
	path: string;
	/** A: the text on disk (undefined: absent). */
	current: string | undefined;
	/**
	 * O: the text last written, from the manifest (undefined: the tool never wrote it, or, with
	 * `written`, the file is deleted and its text is not needed).
	 */
	base: string | undefined;
	/**
	 * Whether the manifest records the file as written; default: `base` is given. True without
	 * `base` for a deleted runtime file the manifest records by digest only.
	 */
	written?: boolean;
	/** B: what this version renders for the current answers. */
	next: string;
	/**
	 * What this version renders for the answers the manifest records, when they changed
	 * (add-provider, remove-provider) and the file is a module whose difference can be carried
	 * over structurally (`src/auth.ts`).
	 */
	from?: string;
	/** Write B even though the user deleted the file (`regenerate --restore`). */
	restore: boolean;
	labels: MergeLabels;
}

/** What to do with the file. */
export interface Reconciled {
	/** The text to write; undefined: leave the file as it is. */
	write: string | undefined;
	/** Whether the manifest records B as the file's base (false: the tool does not own it). */
	record: boolean;
	/** Why the file was left alone, when that is worth telling. */
	skipped?: string;
	/** The written text holds conflict markers. */
	conflict: boolean;
	/** Manual steps (a structural change the user's edits prevented). */
	pending: string[];
}

/**
 * Reconciles one generated file (docs/architecture.md#regenerates-3-way-merge), with O = base,
 * A = current, B = next:
 * - not written (no base): A absent → write B; A the same code as B → own it (B is the base);
 *   A present → the user's file, left alone;
 * - A absent → the user deleted it: left deleted, unless `restore`;
 * - A = O → write B (even when only the layout changed); A is B, or B laid out differently
 *   ({@link sameCode}) → nothing; O = B → keep A;
 * - otherwise a line 3-way merge ({@link mergeText}); overlapping changes become markers.
 * With `from` (the answers changed), A is first merged with `from` as above (the version's
 * changes), then given the `from` → B difference structurally ({@link applyModuleDelta});
 * if the merged text does not parse, a line merge from `from` to B does it instead.
 *
 * @throws {Error} for a file written and present whose `base` the caller did not give (a bug of
 *   the caller's: only a deleted file may go without it)
 */
export function reconcileFile(file: FileVersions): Reconciled {
	const { current, base, next, written = base !== undefined } = file;
	const leave = (skipped?: string, record = true): Reconciled => ({ write: undefined, record, skipped, conflict: false, pending: [] });
	if (!written) {
		if (current === undefined) return { ...leave(), write: next };
		return sameCode(current, next) ? leave() : leave('already exists; left as is', false);
	}
	if (current === undefined) {
		if (file.restore) return { ...leave(), write: next };
		return leave(`you deleted it; left deleted (create-auth regenerate --restore ${file.path} brings it back)`);
	}
	if (base === undefined) throw new Error(`reconcileFile: ${file.path} is written and present, but its base is not given`);
	// Untouched since written: the new rendering replaces it, even when only its layout changed
	// (the app's Prettier arrived); laid out anew by the user or a tool (sv migrate) into the same
	// code as the new rendering: kept.
	if (current === base && file.from === undefined) return { ...leave(), write: current === next ? undefined : next };
	if (sameCode(current, next)) return leave();
	let result: TextMerge;
	const pending: string[] = [];
	if (file.from !== undefined) {
		const version = merge3(base, current, file.from, file.labels);
		const delta = version.conflicts === 0 ? applyModuleDelta(version.content, file.from, next, file.path) : undefined;
		if (delta) pending.push(...delta.pending);
		const answers = delta ? { content: delta.content, conflicts: 0 } : merge3(file.from, version.content, next, file.labels);
		result = { content: answers.content, conflicts: version.conflicts + answers.conflicts };
	} else {
		result = merge3(base, current, next, file.labels);
	}
	return {
		write: result.content === current ? undefined : result.content,
		record: true,
		conflict: result.conflicts > 0,
		pending
	};
}

/** O, A, B → A = B or O = B: A; A = O: B; otherwise a line merge. */
function merge3(base: string, ours: string, theirs: string, labels: MergeLabels): TextMerge {
	if (ours === theirs || base === theirs) return { content: ours, conflicts: 0 };
	if (ours === base) return { content: theirs, conflicts: 0 };
	return mergeText(base, ours, theirs, labels);
}
