import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'dotenv';
import { loadToolPackage } from '../assets.js';
import type { ExistingAuth } from '../existing-auth.js';
import type { Host } from '../hosts.js';
import { MANIFEST_PATH, parseManifest, type Manifest } from '../manifest.js';
import { detectProject, type Project } from '../project.js';
import { probeAdapter, type AdapterFacts } from './adapter.js';
import type { EnvSources } from './check.js';
import { LOCK_FILES, type InstallFacts } from './install.js';

/**
 * Everything the checks look at, read once by `gatherDoctorInput`; every check is a pure
 * function of (a part of) it.
 */
export interface DoctorInput {
	/** The manifest; undefined when absent or unreadable (see `manifestDamaged`). */
	manifest: Manifest | undefined;
	/** `.create-auth/manifest.json` exists but is not a manifest. */
	manifestDamaged: boolean;
	/** create-auth's own version (the one running doctor). */
	toolVersion: string;
	/** The app's lib folder, app-relative (`src/lib`). */
	libDir: string;
	/** The app's `paths.base` (`Project.base`): `''` for none, `null` when only its build knows it. Absent: none. */
	base?: string | null;
	/**
	 * The app declares its environment variables in `src/env.(ts|js)`: SvelteKit 3, SvelteKit 2
	 * with `explicitEnvironmentVariables`, or an app that already has such a file.
	 */
	explicitEnv: boolean;
	/** Names of the app's dependencies and devDependencies, with their ranges. */
	dependencies: Record<string, string>;
	/**
	 * App files the checks read, by app-relative POSIX path (`undefined`: absent): the vendored
	 * runtime, `src/auth.(ts|js)`, `src/env.(ts|js)`, and the manifest's conflict files.
	 */
	files: Record<string, string | undefined>;
	env: EnvSources;
	/** What the answers' adapter needs on this machine; undefined without a manifest. */
	adapter: AdapterFacts | undefined;
	/** How the app installs, and the lock files in its own folder. */
	install: InstallFacts;
	/** Auth the app has besides create-auth's (`Project.existingAuth`); absent: none looked for. */
	existingAuth?: ExistingAuth;
	/** Where the app deploys (`Project.host`); absent: no adapter create-auth knows. */
	host?: Host;
}

/**
 * Reads everything doctor's checks look at, once: the project (as `detectProject` does), the
 * manifest, `.env` and `.env.local`, the manifest's conflict files, what the adapter needs on
 * this machine (its native driver loaded, its database asked, when it has them), and the lock
 * files in the app's folder.
 *
 * @param root the app's folder
 * @param processEnv the environment the dev server would see (`process.env`)
 * @throws {CliError} `E_NOT_SVELTEKIT` from `detectProject`
 */
export async function gatherDoctorInput(root: string, processEnv: Record<string, string | undefined> = process.env): Promise<DoctorInput> {
	const project = await detectProject(root);
	const read = (file: string) => readFile(path.join(project.root, file), 'utf8').catch(() => undefined);
	const manifestText = project.files[MANIFEST_PATH];
	const manifest = parseManifest(manifestText);
	const files: Record<string, string | undefined> = { ...project.files };
	for (const file of manifest?.conflicts ?? []) files[file] ??= await read(file);

	const packageJson = JSON.parse(project.packageJson) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
	const dependencies = { ...packageJson.devDependencies, ...packageJson.dependencies };
	const env = await readEnvSources(project, processEnv);
	const app = { dependencies: Object.keys(dependencies), manager: project.packageManager };
	return {
		manifest,
		manifestDamaged: manifestText !== undefined && !manifest,
		toolVersion: (await loadToolPackage()).version,
		libDir: project.libDir,
		base: project.base,
		explicitEnv: project.kit.explicitEnv || files['src/env.ts'] !== undefined || files['src/env.js'] !== undefined,
		dependencies,
		files,
		env,
		adapter: manifest ? await probeAdapter(project.root, manifest.answers.adapter, env, project.libDir, app) : undefined,
		install: {
			manager: project.packageManager,
			root: project.root,
			installRoot: project.installRoot,
			lockFiles: LOCK_FILES.filter((file) => existsSync(path.join(project.root, file)))
		},
		...(project.existingAuth ? { existingAuth: project.existingAuth } : {}),
		...(project.host ? { host: project.host } : {})
	};
}

/**
 * The app's variables where the dev server finds them: `processEnv`, `.env.local` (read from
 * disk) and `.env` (as detection read it); a file that is absent holds nothing.
 */
export async function readEnvSources(project: Project, processEnv: Record<string, string | undefined> = process.env): Promise<EnvSources> {
	const envLocal = await readFile(path.join(project.root, '.env.local'), 'utf8').catch(() => '');
	return { process: processEnv, envLocal: parse(envLocal), env: parse(project.files['.env'] ?? '') };
}
