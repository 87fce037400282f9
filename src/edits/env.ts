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

/**
 * dotenv's own line pattern (`dotenv`'s `parse`), with match indices: a key's definition is
 * found exactly where dotenv finds it, so a value is replaced where dotenv reads it.
 */
const DOTENV_LINE =
	/(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/dgm;

/** A value dotenv reads back unchanged without quotes. */
const BARE = /^[^\s#'"`\\]*$/;

/**
 * Sets each entry's value in a dotenv file. A key already defined keeps its line: only its
 * value changes, in place (the last definition, the one dotenv reads; an `export` prefix, the
 * spacing, the quotes and a trailing comment stay as they were). A missing key is appended
 * with its comment, as {@link addEnvEntries} does. Every other byte is unchanged, and appended
 * lines end like the file's own (CRLF or LF).
 *
 * A value with spaces, `#`, quotes or backslashes is written in quotes dotenv reads back
 * verbatim (single quotes, else backticks, else double quotes), so a user's old secret can
 * move to another key unchanged.
 *
 * @param source the file's current text, or undefined when it does not exist
 * @returns the new text; `dotenv.parse` of it gives each entry's value
 * @throws {TypeError} for a value no dotenv quoting reads back verbatim (it holds a carriage
 *   return, or every quote character and a backslash)
 */
export function setEnvValues(source: string | undefined, entries: readonly EnvEntry[]): string {
	let text = source ?? '';
	const missing: EnvEntry[] = [];
	for (const entry of entries) {
		const span = valueSpan(text, entry.key);
		if (!span) {
			missing.push({ ...entry, value: literal(entry.key, entry.value) });
		} else if (BARE.test(entry.value) || (span.quote && quotable(entry.value, span.quote))) {
			text = `${text.slice(0, span.start)}${entry.value}${text.slice(span.end)}`;
		} else {
			const outer = span.quote ? { start: span.start - 1, end: span.end + 1 } : span;
			text = `${text.slice(0, outer.start)}${literal(entry.key, entry.value)}${text.slice(outer.end)}`;
		}
	}
	if (missing.length === 0) return text;
	const eol = text.includes('\r\n') ? '\r\n' : '\n';
	const block = missing.map((entry) => `# ${entry.comment}${eol}${entry.key}=${entry.value}${eol}`).join('');
	if (text === '') return block;
	return `${text}${text.endsWith('\n') ? '' : eol}${eol}${block}`;
}

/** `value` as dotenv writes it: bare when it can be, else in the first quotes that keep it verbatim. */
function literal(key: string, value: string): string {
	if (BARE.test(value)) return value;
	const quote = (["'", '`', '"'] as const).find((q) => quotable(value, q));
	if (!quote) throw new TypeError(`setEnvValues: the value of ${key} cannot be written to a dotenv file verbatim`);
	return `${quote}${value}${quote}`;
}

/**
 * Whether dotenv reads `value` back unchanged between `quote`s: no such quote inside, no final
 * backslash (it would escape the closing quote), no carriage return (dotenv drops it); double
 * quotes expand `\n`, so no backslash at all there.
 */
function quotable(value: string, quote: string): boolean {
	if (value.includes(quote) || value.endsWith('\\') || value.includes('\r')) return false;
	return quote !== '"' || !value.includes('\\');
}

/**
 * Where the value of `key`'s last definition sits: inside its quotes (`quote` says which)
 * when quoted, without the surrounding spaces otherwise; an empty span right after `=` for an
 * empty value.
 */
function valueSpan(source: string, key: string): { start: number; end: number; quote?: string } | undefined {
	let span: { start: number; end: number; quote?: string } | undefined;
	for (const match of source.matchAll(DOTENV_LINE)) {
		if (match[1] !== key) continue;
		const [, keyEnd] = match.indices![1]!;
		const value = match.indices![2];
		if (!value) {
			const separator = /^\s*=|^:\s/.exec(source.slice(keyEnd))![0];
			span = { start: keyEnd + separator.length, end: keyEnd + separator.length };
			continue;
		}
		const raw = match[2]!;
		const start = value[0] + (raw.length - raw.trimStart().length);
		const end = value[1] - (raw.length - raw.trimEnd().length);
		const first = source[start]!;
		const quoted = /['"`]/.test(first) && end - start >= 2 && source[end - 1] === first;
		span = quoted ? { start: start + 1, end: end - 1, quote: first } : { start, end };
	}
	return span;
}
