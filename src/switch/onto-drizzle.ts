import { DEFAULT_ANSWERS, type Answers, type Strategy } from '../answers.js';
import type { AuthLibraryId } from '../existing-auth.js';
import type { Manifest } from '../manifest.js';
import type { Project } from '../project.js';

/**
 * Why a library whose rows are copied into create-auth's tables through the app's Drizzle `db`
 * (Better Auth, Lucia, as `sv` sets them up) cannot be switched: the app has no Drizzle setup,
 * or create-auth was set up beside the library with another adapter. Empty when it can.
 * @param name the library's name for people (`Better Auth`)
 */
export function drizzleBlockers(project: Project, manifest: Manifest | undefined, name: string): string[] {
	const blockers: string[] = [];
	if (!project.drizzle) blockers.push(`The switch moves ${name} apps whose database the app's Drizzle db reaches (as sv sets them up); this app has no Drizzle setup.`);
	const recorded = manifest?.answers.adapter;
	if (recorded && recorded !== 'drizzle') {
		blockers.push(`create-auth keeps its users here with the ${recorded} adapter, not in the Drizzle database ${name}'s users are copied to: set it up with --adapter drizzle first.`);
	}
	return blockers;
}

/**
 * The answers of a switch onto the app's Drizzle `db`: `providers` (added to those of a manifest,
 * when create-auth was set up beside the library), the `database` strategy unless `given` or the
 * manifest says otherwise, and the library as `previous`.
 */
export function drizzleAnswers(manifest: Manifest | undefined, providers: readonly string[], given: { strategy?: Strategy }, previous: AuthLibraryId): Answers {
	const recorded = manifest?.answers;
	return {
		...(recorded ?? DEFAULT_ANSWERS),
		providers: [...new Set([...(recorded?.providers ?? []), ...providers])],
		strategy: given.strategy ?? recorded?.strategy ?? 'database',
		adapter: 'drizzle',
		previous: [previous]
	};
}
