import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { DEFAULT_ANSWERS, type Answers } from './answers.js';

/** Where the manifest lives in the app (committed with the app: regenerate needs it). */
export const MANIFEST_PATH = '.create-auth/manifest.json';

/**
 * How a generated file is owned (docs/architecture.md#the-cli-pipeline): `managed` (the tool's, replaced on
 * regenerate), `merge` (generated once, then the user's; 3-way merged), `patch` (the user's
 * file; small idempotent structural edits).
 */
export type FileStrategy = 'managed' | 'merge' | 'patch';

/**
 * What the manifest records of one file.
 *
 * A `managed` runtime file is recorded by digest only: its text is the runtime file of the
 * release that wrote it (formatted by the app's Prettier), so regenerate's merge base is the
 * app's copy while that is unchanged, or that release's file (`baseOfManaged` in plan.ts).
 * A `merge` file's text is kept, compressed with the others in the manifest's `bases`.
 */
export type ManifestFile =
	| {
			strategy: 'managed';
			/** SHA-256 (hex) of the text last written (absent in older manifests, which keep `content`). */
			sha256?: string;
			/**
			 * SHA-256 (hex) of the rendering before the app's Prettier formatted it (the release's
			 * runtime file itself); only in apps with Prettier. An unchanged rendering reuses the
			 * app's unchanged copy instead of formatting it again.
			 */
			rendered?: string;
			/**
			 * The release whose runtime file this is, when not the manifest's `version`: a file
			 * regenerate could not merge (that release was out of reach) keeps its old record.
			 */
			release?: string;
			/** The text last written: only in older manifests, read as they are. */
			content?: string;
	  }
	| {
			strategy: 'merge';
			/** The text last written: the base of regenerate's 3-way merge. */
			content: string;
			/**
			 * SHA-256 (hex) of the rendering before the app's Prettier formatted it into `content`;
			 * only in apps with Prettier. An unchanged rendering reuses `content` unformatted again.
			 */
			rendered?: string;
	  }
	| {
			strategy: 'patch';
			/** What the tool added to the user's file (env keys, imports), never its full text: `.env` holds secrets. */
			edits: string[];
	  };

/** `.create-auth/manifest.json`, as read: every `merge` file's `content` in place. */
export interface Manifest {
	/** create-auth version that last wrote the app. */
	version: string;
	answers: Answers;
	/** Keyed by app-relative POSIX path. */
	files: Record<string, ManifestFile>;
	/** Manual steps the tool could not do (unknown file shapes), to do by hand. */
	pending: string[];
	/**
	 * Files `regenerate` left with conflict markers (app-relative paths). Every later run
	 * refuses until no file listed here still holds a marker.
	 */
	conflicts?: string[];
}

/**
 * The `merge` files' texts in the file as written: a JSON object (path → text), compressed
 * with Brotli, in base64. Pages share most of their text, so together they compress to about
 * a sixth of it; the manifest of a five-provider app stays near 35 KB.
 */
interface StoredBases {
	bases?: string;
}

/**
 * SHA-256 of a text (UTF-8), as 64 hex digits: how the manifest tells a file unchanged.
 * @see docs/architecture.md#the-manifest
 */
export function digest(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/**
 * Reads a manifest's text.
 *
 * @returns the manifest (`pending` defaulted to []; `answers.rateLimit`, which manifests of
 *   earlier versions lack, to `memory`: what those versions wrote; `merge` files' texts taken
 *   out of `bases`), or undefined when the text is absent or not a manifest: no version, files
 *   or answers.providers, or a `merge` file whose text `bases` lacks (a damaged manifest is
 *   treated as a first run: files that exist are then left alone, nothing is lost)
 */
export function parseManifest(text: string | undefined): Manifest | undefined {
	if (!text) return undefined;
	try {
		const { bases, ...value } = JSON.parse(text) as Partial<Manifest> & StoredBases;
		const valid =
			typeof value.version === 'string' &&
			!!value.files &&
			typeof value.files === 'object' &&
			Array.isArray(value.answers?.providers);
		if (!valid) return undefined;
		const texts = bases === undefined ? {} : (JSON.parse(brotliDecompressSync(Buffer.from(bases, 'base64')).toString('utf8')) as Record<string, unknown>);
		const files: Record<string, ManifestFile> = {};
		for (const [path, file] of Object.entries(value.files!)) {
			const stored = file.strategy === 'merge' && file.content === undefined ? { ...file, content: texts[path] } : file;
			if (!wellFormed(stored)) return undefined;
			files[path] = stored;
		}
		const answers = { ...value.answers!, rateLimit: value.answers!.rateLimit ?? DEFAULT_ANSWERS.rateLimit };
		return { ...value, answers, files, pending: Array.isArray(value.pending) ? value.pending : [] } as Manifest;
	} catch {
		return undefined;
	}
}

/** Whether a record has what the plan reads of it: a `merge` file's text, a `managed` file's digest (or its text, in older manifests). */
function wellFormed(file: Partial<Record<'strategy' | 'content' | 'sha256', unknown>>): file is ManifestFile {
	if (file.strategy === 'merge') return typeof file.content === 'string';
	if (file.strategy === 'managed') return typeof file.sha256 === 'string' || typeof file.content === 'string';
	return file.strategy === 'patch';
}

/**
 * Whether `text` is what the manifest records as last written for a generated file: equal to
 * its kept text, or (a runtime file recorded by digest) of the same {@link digest}; always false
 * for a `patch` record, which keeps no text.
 * @see docs/architecture.md#the-manifest
 */
export function isAsWritten(file: ManifestFile, text: string): boolean {
	if (file.strategy === 'patch') return false;
	if (file.strategy === 'managed' && file.content === undefined) return digest(text) === file.sha256;
	return file.content === text;
}

/**
 * The manifest's text: stable key order, two-space indent, final newline; the `merge` files'
 * texts moved into `bases` (see {@link StoredBases}).
 */
export function serializeManifest(manifest: Manifest): string {
	const texts: Record<string, string> = {};
	const files: Record<string, unknown> = {};
	for (const [path, file] of Object.entries(manifest.files)) {
		if (file.strategy !== 'merge') {
			files[path] = file;
			continue;
		}
		const { content, ...record } = file;
		texts[path] = content;
		files[path] = record;
	}
	const bases = Object.keys(texts).length === 0 ? {} : { bases: brotliCompressSync(JSON.stringify(texts)).toString('base64') };
	return `${JSON.stringify({ ...manifest, files, ...bases }, null, 2)}\n`;
}

/**
 * Whether `text` records what `written` ({@link serializeManifest}'s text) does: the same text,
 * or one that differs only in how `bases` was compressed (another Node's zlib may compress the
 * same texts differently). Never throws: an unreadable `text` records nothing.
 * @see docs/architecture.md#the-manifest
 */
export function isManifestText(text: string | undefined, written: string): boolean {
	if (text === undefined) return false;
	if (text === written) return true;
	const decoded = (json: string) => {
		const { bases, ...rest } = JSON.parse(json) as StoredBases & Record<string, unknown>;
		return JSON.stringify({ ...rest, bases: bases === undefined ? undefined : brotliDecompressSync(Buffer.from(bases, 'base64')).toString('utf8') });
	};
	try {
		return decoded(text) === decoded(written);
	} catch {
		return false;
	}
}
