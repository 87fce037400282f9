import type { ExistingAuth } from '../existing-auth.js';
import type { Manifest } from '../manifest.js';
import type { Check } from './check.js';

/**
 * Auth the app has besides create-auth's (issue 26; README, "Apps that already have auth"):
 *
 * - `existing-auth:<library id>` (warn), one per library found (`ExistingAuth.libraries`): it is
 *   set up beside create-auth, both hooks run on every request, and its users cannot sign in on
 *   create-auth's pages;
 * - `lib-imports:<folder>` (error) when an app module shadows a runtime folder
 *   (`src/lib/server/auth.ts` beside `server/auth/`) while files create-auth generated still
 *   import the folder by its bare name (`$lib/server/auth`, now the app's module): the module
 *   arrived after the last run, and a regenerate imports the index by name instead; one
 *   `lib-imports` ok when every shadowed folder is imported by its index.
 *
 * Nothing at all for an app with neither (no library, no shadowing module).
 *
 * @param input.files the app's files by app-relative path (the generated ones among them)
 * @param input.manifest the files create-auth generated (`merge` and `managed`) are read from it
 */
export function existingAuthChecks(input: { existingAuth?: ExistingAuth; manifest: Manifest; files: Record<string, string | undefined> }): Check[] {
	const existing = input.existingAuth;
	if (!existing) return [];
	const checks: Check[] = existing.libraries.map((library) => ({
		id: `existing-auth:${library.id}`,
		status: 'warn',
		message: `${library.name} is set up beside create-auth (${[...library.packages.map((name) => `${name} in package.json`), ...library.files.map(({ path }) => path)].join(', ')}): both hooks run on every request, and its users cannot sign in on /signin.`,
		hint: `Keep one of them: once ${library.name}'s users have moved, remove its handle from src/hooks.server.ts and its packages.`
	}));
	const generated = Object.entries(input.manifest.files)
		.filter(([, file]) => file.strategy !== 'patch')
		.map(([path]) => path);
	const broken = Object.entries(existing.shadowed).flatMap(([folder, module]) => {
		const specifier = `$lib/${folder}`;
		const importing = generated.filter((path) => importsSpecifier(input.files[path] ?? '', specifier));
		return importing.length > 0 ? [{ folder, module, specifier, importing }] : [];
	});
	for (const { folder, module, specifier, importing } of broken) {
		checks.push({
			id: `lib-imports:${folder}`,
			status: 'error',
			message: `${specifier} is your ${module}, not create-auth's runtime, yet ${importing.join(', ')} ${importing.length === 1 ? 'imports' : 'import'} it.`,
			hint: `Run npx create-auth regenerate: the generated files then import ${specifier}/index.`
		});
	}
	if (broken.length === 0 && Object.keys(existing.shadowed).length > 0) {
		const modules = Object.values(existing.shadowed).join(', ');
		checks.push({ id: 'lib-imports', status: 'ok', message: `The generated files import the runtime by its index, past ${modules}.` });
	}
	return checks;
}

/** Whether a module's text imports or re-exports exactly `specifier` (in either quote). */
function importsSpecifier(text: string, specifier: string): boolean {
	return text.includes(`from '${specifier}'`) || text.includes(`from "${specifier}"`);
}
