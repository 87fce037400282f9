import { DEFAULT_ANSWERS, type Answers } from './answers.js';

/** Where the manifest lives in the app (committed with the app: regenerate needs it). */
export const MANIFEST_PATH = '.create-auth/manifest.json';

/**
 * How a generated file is owned (docs/architecture.md#the-cli-pipeline): `managed` (the tool's, replaced on
 * regenerate), `merge` (generated once, then the user's; 3-way merged), `patch` (the user's
 * file; small idempotent structural edits).
 */
export type FileStrategy = 'managed' | 'merge' | 'patch';

/** What the manifest records of one file. */
export type ManifestFile =
	| {
			strategy: 'managed' | 'merge';
			/** The exact text last written: the base of regenerate's 3-way merge. */
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

/** `.create-auth/manifest.json`. */
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
 * Reads a manifest's text.
 *
 * @returns the manifest (`pending` defaulted to []; `answers.rateLimit`, which manifests of
 *   earlier versions lack, to `memory`: what those versions wrote), or undefined when the text
 *   is absent or not a manifest: no version, files or answers.providers (a damaged manifest is
 *   treated as a first run: files that exist are then left alone, nothing is lost)
 */
export function parseManifest(text: string | undefined): Manifest | undefined {
	if (!text) return undefined;
	try {
		const value = JSON.parse(text) as Partial<Manifest>;
		const valid =
			typeof value.version === 'string' &&
			!!value.files &&
			typeof value.files === 'object' &&
			Array.isArray(value.answers?.providers);
		if (!valid) return undefined;
		const answers = { ...value.answers!, rateLimit: value.answers!.rateLimit ?? DEFAULT_ANSWERS.rateLimit };
		return { ...value, answers, pending: Array.isArray(value.pending) ? value.pending : [] } as Manifest;
	} catch {
		return undefined;
	}
}

/** The manifest's text: stable key order, two-space indent, final newline. */
export function serializeManifest(manifest: Manifest): string {
	return `${JSON.stringify(manifest, null, 2)}\n`;
}
