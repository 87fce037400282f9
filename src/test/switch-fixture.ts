import { fileURLToPath } from 'node:url';
import type { AuthLibraryId } from '../existing-auth.js';
import { detectProject } from '../project.js';
import { readSources } from '../switch/sources.js';

/**
 * An e2e fixture app (`e2e/fixtures/<name>`, made by sv) as `create-auth switch` reads it, for
 * the planners' tests: the project, its `src/` modules with `changes` laid over them (path →
 * text, added or replaced), and the library the app was found to have.
 * @throws {Error} the fixture does not have `library`
 */
export async function switchFixture(name: string, library: AuthLibraryId, changes: Record<string, string> = {}) {
	const root = fileURLToPath(new URL(`../../e2e/fixtures/${name}`, import.meta.url));
	const project = await detectProject(root);
	const sources = { ...(await readSources(root)), ...changes };
	const found = project.existingAuth?.libraries.find(({ id }) => id === library);
	if (!found) throw new Error(`The fixture ${name} has no ${library}.`);
	return { project, sources, library: found };
}
