import type { Answers, Strategy } from '../answers.js';
import type { FoundAuthLibrary } from '../existing-auth.js';
import type { Manifest } from '../manifest.js';
import type { Project } from '../project.js';
import type { DataDialect } from './data.js';

/**
 * What switching an app from its auth library to create-auth takes (`create-auth switch`, issue
 * 29), worked out before anything is written: a pure function of the app's files per library
 * (`switch/<library>.ts`).
 */
export interface LibrarySwitch {
	library: FoundAuthLibrary;
	/** What create-auth sets up: the library's sign-in methods mapped to providers, `previous` naming the library. */
	answers: Answers;
	/**
	 * The app's own files as the switch leaves them before create-auth's plan runs over them,
	 * app-relative path → new text, undefined to delete: the library's hook taken out of
	 * `src/hooks.server.ts`, its types out of `src/app.d.ts`, its packages out of package.json,
	 * its modules and demo routes deleted.
	 */
	edits: Record<string, string | undefined>;
	/**
	 * create-auth's own renderings changed before they are written, app-relative path → change:
	 * the library's settings carried into create-auth's `src/auth.ts`. A later regenerate sees
	 * them as the app's edits, and keeps them.
	 */
	amend: Record<string, (content: string) => string>;
	/** What carries over, one line each, for the summary. */
	carried: string[];
	/** What does not, one line each. */
	left: string[];
	/**
	 * Why the switch cannot run as the app is (a sign-in method create-auth lacks, app code that
	 * still uses the library), one line each naming the file or option; empty when it can.
	 */
	blockers: string[];
	/** Where the library's rows are, for the copy after the install; undefined: nothing to copy. */
	dialect?: DataDialect;
}

/**
 * A library's planner (`switch/<library>.ts`): its {@link LibrarySwitch}, from the app, its
 * manifest when create-auth was set up beside the library, the library as found, every module
 * below `src/` (app-relative path → text) and the `--strategy` given.
 */
export type SwitchPlanner = (project: Project, manifest: Manifest | undefined, library: FoundAuthLibrary, sources: Record<string, string>, given: { strategy?: Strategy }) => LibrarySwitch;
