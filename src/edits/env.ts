import { parse } from 'dotenv';

/** One variable for `.env` / `.env.example`. */
export interface EnvEntry {
	key: string;
	value: string;
	/** One line of explanation written above the variable. */
	comment: string;
}

/**
 * Appends the entries whose key the dotenv file does not define yet. Existing keys are never
 * changed, whatever their value, so a user's `AUTH_SECRET` is never overwritten; existing lines
 * stay byte-identical.
 *
 * @param source the file's current text, or undefined when it does not exist
 * @returns the new text (equal to `source` when every key is already defined)
 */
export function addEnvEntries(source: string | undefined, entries: readonly EnvEntry[]): string {
	const defined = parse(source ?? '');
	const missing = entries.filter((entry) => !(entry.key in defined));
	if (missing.length === 0) return source ?? '';
	const block = missing.map((entry) => `# ${entry.comment}\n${entry.key}=${entry.value}\n`).join('');
	if (!source) return block;
	return `${source}${source.endsWith('\n') ? '' : '\n'}\n${block}`;
}

/**
 * Appends the lines a line-based file (such as `.gitignore`) lacks, each compared trimmed.
 *
 * @returns the new text, or `source` unchanged when every line is present
 */
export function addMissingLines(source: string, lines: readonly string[], heading: string): string {
	const present = new Set(source.split(/\r?\n/).map((line) => line.trim()));
	const missing = lines.filter((line) => !present.has(line));
	if (missing.length === 0) return source;
	return `${source}${source.endsWith('\n') || source === '' ? '' : '\n'}\n# ${heading}\n${missing.join('\n')}\n`;
}
