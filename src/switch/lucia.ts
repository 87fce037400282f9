import type { Strategy } from '../answers.js';
import { removeDependencies } from '../edits/package-json.js';
import type { FoundAuthLibrary } from '../existing-auth.js';
import type { Manifest } from '../manifest.js';
import type { Project } from '../project.js';
import { removeLibraryTypes } from './app-types.js';
import { removeLibraryHandle } from './hooks.js';
import { drizzleAnswers, drizzleBlockers } from './onto-drizzle.js';
import { escapeRegExp, libSpecifierOf } from './sources.js';
import type { LibrarySwitch } from './types.js';

/** The function only Lucia's session module and its hook call (Lucia's guide, `sv add lucia`). */
const HOOK_MARKER = 'validateSessionToken';

/** The packages Lucia's session module uses, removed once nothing left in the app imports them. */
const OSLO_PACKAGES = ['@oslojs/crypto', '@oslojs/encoding'];

/** The route folder `sv add lucia` writes its demo to. */
const SV_DEMO = 'src/routes/demo/lucia/';

/**
 * Plans the switch of an app from Lucia's session functions (issue 29), the shape Lucia's guide
 * describes and `sv add lucia` writes: a lib module with `validateSessionToken` and
 * `sessionCookieName` over `@oslojs`, a hook that fills `locals.user` and `locals.session`, its
 * tables in the app's Drizzle database. See {@link LibrarySwitch}.
 *
 * - Answers: `credentials` (Lucia apps sign in with a password), the `database` strategy unless
 *   `strategy` says otherwise, the app's Drizzle `db` as the adapter, `previous: ['lucia']`;
 *   with a manifest (create-auth was added beside Lucia), its answers plus `credentials`.
 * - Edits: the hook that calls `validateSessionToken` out of the hooks file, the `App.Locals`
 *   members typed from the module out of `app.d.ts`, the module and sv's demo routes deleted, the
 *   `@oslojs` packages out of package.json when nothing left imports them (`@node-rs/argon2`
 *   stays: the runtime verifies Lucia's hashes with it).
 * - Blockers: the deprecated `lucia` package (v2/v3 stores sessions another way), no Drizzle
 *   setup, create-auth already set up with another adapter, app code that still imports the
 *   module or reads `locals.user` / `locals.session`.
 *
 * @param sources every module below `src/` (`.ts`, `.js`, `.svelte`), app-relative path → text
 */
export function planLuciaSwitch(
	project: Project,
	manifest: Manifest | undefined,
	library: FoundAuthLibrary,
	sources: Record<string, string>,
	given: { strategy?: Strategy }
): LibrarySwitch {
	const blockers: string[] = [];
	const hooksPath = ['src/hooks.server.ts', 'src/hooks.server.js'].find((file) => sources[file] !== undefined);
	const modulePath = library.files.map(({ path }) => path).find((file) => file !== hooksPath && sources[file] !== undefined && /\bsessionCookieName\b/.test(sources[file]!));
	if (library.packages.includes('lucia') || Object.values(sources).some((text) => /\bfrom\s*['"]lucia['"]/.test(text))) {
		blockers.push("The app uses the lucia package (v2/v3), whose sessions are stored another way: the switch moves apps made after Lucia's guide (sv add lucia).");
	}
	if (!modulePath) blockers.push("Lucia's session module (validateSessionToken and sessionCookieName) was not found.");
	blockers.push(...drizzleBlockers(project, manifest, 'Lucia'));

	const specifier = modulePath ? libSpecifierOf(modulePath, project.libDir) : undefined;
	const importsModule = (text: string) => specifier !== undefined && new RegExp(`from\\s*['"]${escapeRegExp(specifier)}(?:\\.[jt]s)?['"]`).test(text);
	const deleted = Object.keys(sources).filter((file) => file === modulePath || file.startsWith(SV_DEMO));
	const appTypesPath = sources['src/app.d.ts'] !== undefined ? 'src/app.d.ts' : undefined;
	const kept = Object.entries(sources).filter(([file]) => !deleted.includes(file));
	for (const [file, text] of kept) {
		if (file === hooksPath || file === appTypesPath) continue;
		if (importsModule(text)) blockers.push(`${file} still imports Lucia's ${specifier}: move it to create-auth (locals.auth(), the signIn / signOut actions) first.`);
		else if (/\blocals\s*\.\s*(?:user|session)\b/.test(text)) blockers.push(`${file} reads locals.user or locals.session, which Lucia's hook set: read (await locals.auth())?.user instead.`);
	}

	const edits: Record<string, string | undefined> = Object.fromEntries(deleted.map((file) => [file, undefined]));
	if (hooksPath) {
		const hooks = removeLibraryHandle(sources[hooksPath]!, HOOK_MARKER, hooksPath);
		if (hooks.pending) blockers.push(hooks.pending);
		else edits[hooksPath] = hooks.content;
	}
	if (appTypesPath && specifier) {
		const types = removeLibraryTypes(sources[appTypesPath]!, [specifier], appTypesPath);
		if (types.pending) blockers.push(types.pending);
		else if (types.content !== sources[appTypesPath]) edits[appTypesPath] = types.content;
	}
	const stillImported = (name: string) => kept.some(([, text]) => new RegExp(`from\\s*['"]${escapeRegExp(name)}(?:/[^'"]*)?['"]`).test(text));
	edits['package.json'] = removeDependencies(project.packageJson, OSLO_PACKAGES.filter((name) => !stillImported(name)));

	const demo = `/${SV_DEMO.slice('src/routes/'.length, -1)}`;
	return {
		library,
		answers: drizzleAnswers(manifest, ['credentials'], given, 'lucia'),
		edits,
		amend: {},
		// One line each, at most about 76 characters, for an 80-column terminal.
		carried: [
			'Users: their ids; a username becomes the name, and signs in as before.',
			"Passwords: Lucia's argon2id hashes, rehashed at each user's next sign-in.",
			'Signed-in browsers stay signed in (their auth-session cookie).'
		],
		left: [
			'Users without an address have no password reset: it mails a link.',
			`Lucia's tables${project.drizzle ? ' and Drizzle schema' : ''} stay, unused: drop them later.`,
			...kept.filter(([, text]) => text.includes(`'${demo}'`)).map(([file]) => `${file} links to ${demo}, deleted here.`)
		],
		blockers,
		dialect: project.drizzle?.dialect
	};
}
