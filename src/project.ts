import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { installedPackage } from './app-modules.js';
import { baseOf, KIT_CONFIG_FILES } from './base-path.js';
import { detectDrizzle, drizzleDbCandidates, drizzleSchemaPath, type DrizzleSetup } from './drizzle.js';
import { detectPrisma, isPrismaSchemaFolder, prismaClientCandidates, prismaSchemaPath, PRISMA_MODELS_FILE, type PrismaSetup } from './prisma.js';
import { CliError } from './errors.js';
import { detectExistingAuth, type ExistingAuth } from './existing-auth.js';
import { hostOf, type Host } from './hosts.js';
import { enablesExplicitEnv, hasRequestEvent, hasResolve, kitMajor, libFolder, type KitShape } from './kit.js';
import { MANIFEST_PATH, parseManifest } from './manifest.js';
import { plannedPaths } from './targets.js';
import { detectPackageManager, installRootFile, type PackageManager } from './workspace.js';

export type { PackageManager } from './workspace.js';

/**
 * What the CLI knows about the app it writes into. Detection does the I/O; the plan is a pure
 * function of this value, so every existing file a plan may edit is read here, up front.
 */
export interface Project {
	/** Absolute path of the app's root folder (where its package.json is). */
	root: string;
	/** How generated code must be written for the app's SvelteKit (major, `#lib`, explicit env). */
	kit: KitShape;
	/** The lib folder, app-relative (`src/lib`): the runtime is vendored below it. */
	libDir: string;
	/**
	 * The app's `paths.base` as its config writes it ({@link baseOf}): `''` when none is
	 * set, `null` when only the build knows it (read from the environment, say).
	 */
	base: string | null;
	/** true for a TypeScript app (tsconfig.json), false for a JSDoc one (jsconfig.json or none). */
	typescript: boolean;
	packageManager: PackageManager;
	/**
	 * Absolute path of the folder the install runs in: the root of the workspace the app is a
	 * package of, else `root` ({@link detectPackageManager}). When it is not `root`, its
	 * package.json and `pnpm-workspace.yaml` are in {@link files} under app-relative keys
	 * (`../../package.json`, {@link installRootFile}).
	 */
	installRoot: string;
	/** The app's package.json text, verbatim (edited structurally to add dependencies). */
	packageJson: string;
	/**
	 * Current text of each app file the plan may write, patch or must not overwrite, keyed by
	 * app-relative POSIX path; a path maps to `undefined` when the file does not exist. Holds
	 * every path the plan names for any answers ({@link plannedPaths}), every path the manifest
	 * records, every file below the vendored runtime's folders, and the Drizzle and Prisma schemas.
	 */
	files: Record<string, string | undefined>;
	/** The app's Drizzle setup (`sv add drizzle`), when it has one we can use; its schema file is in `files`. */
	drizzle?: DrizzleSetup;
	/** The app's Prisma schema and client, when it has ones we can use; its schema file is in `files`. */
	prisma?: PrismaSetup;
	/** Auth the app already has (another library; modules that shadow the runtime's folders); absent: none looked for. */
	existingAuth?: ExistingAuth;
	/** Where it deploys, from the SvelteKit adapter its config imports or it depends on ({@link hostOf}); absent: no adapter create-auth knows. */
	host?: Host;
}

/**
 * Where the runtime is vendored, below the lib folder; every file below them is read (the plan
 * compares them). The runtime's own folders mirror these.
 */
export const VENDOR_DIRS = ['server/auth', 'auth'] as const;

/**
 * Reads the app at `root` into a {@link Project}.
 *
 * @param root folder to inspect (resolved against the process's cwd)
 * @param userAgent the `npm_config_user_agent` of the invoking package manager, used when the
 *   app (or its workspace) names no package manager ({@link detectPackageManager})
 * @throws {CliError} `E_NOT_SVELTEKIT` when there is no package.json, it is not JSON, or it
 *   does not depend on `@sveltejs/kit`
 */
export async function detectProject(root: string, userAgent = ''): Promise<Project> {
	root = path.resolve(root);
	const notKit = (why: string) =>
		new CliError(
			'E_NOT_SVELTEKIT',
			`${root} is not a SvelteKit app: ${why}.`,
			'Run create-auth inside a SvelteKit app, or point at one with --cwd <path>.'
		);
	let packageJson: string;
	try {
		packageJson = await readFile(path.join(root, 'package.json'), 'utf8');
	} catch {
		throw notKit('there is no package.json');
	}
	let manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; imports?: unknown };
	try {
		manifest = JSON.parse(packageJson);
	} catch {
		throw notKit('package.json is not valid JSON');
	}
	const kitRange = manifest.devDependencies?.['@sveltejs/kit'] ?? manifest.dependencies?.['@sveltejs/kit'];
	if (!kitRange) throw notKit('package.json does not depend on @sveltejs/kit');

	const files: Record<string, string | undefined> = {};
	const readInto = (paths: Iterable<string>) =>
		Promise.all(
			[...paths].map(async (file) => {
				files[file] = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
			})
		);
	const { libImports, libDir } = libFolder(manifest.imports);
	for (const dir of VENDOR_DIRS) {
		Object.assign(files, await readTree(path.join(root, libDir, dir), `${libDir}/${dir}`));
	}
	// What a plan may write for any answers, then what the manifest says an earlier run wrote
	// (a page an older release generated, a file whose path moved since): no fixed list.
	await readInto(plannedPaths());
	await readInto(recordedPaths(files[MANIFEST_PATH]).filter((file) => !(file in files)));
	// Drizzle: the schema file its config names (patched), and the module that exports `db`.
	const schema = drizzleSchemaPath(files);
	if (schema) await readInto([schema, ...drizzleDbCandidates(schema)]);
	const drizzle = detectDrizzle(files, libDir);
	// Prisma: the schema file (patched), or each file of a schema folder, and the modules that may export the client.
	const prismaSchema = prismaSchemaPath(files);
	await readInto([...(isPrismaSchemaFolder(prismaSchema) ? await prismaSchemaFiles(root, prismaSchema) : [prismaSchema]), ...prismaClientCandidates(libDir)]);
	const prisma = detectPrisma(files, libDir);
	const { manager: packageManager, installRoot } = await detectPackageManager(root, userAgent);
	// Build allowances live at the install root (the app's folder, or its workspace's root): the
	// plan edits them there. The app's own package.json is `packageJson`.
	for (const file of installRoot === root ? ['pnpm-workspace.yaml'] : ['package.json', 'pnpm-workspace.yaml']) {
		files[installRootFile(root, installRoot, file)] = await readFile(path.join(installRoot, file), 'utf8').catch(() => undefined);
	}
	// Where the app resolves it: its own node_modules, or the workspace's (hoisted); not above.
	const installed = installedPackage(root, '@sveltejs/kit', installRoot)?.manifest.version;
	const major = kitMajor(installed, kitRange);
	// The app's config: whether it turns on explicit environment variables (SvelteKit 2), its paths.base.
	const configs = await Promise.all(KIT_CONFIG_FILES.map((file) => readFile(path.join(root, file), 'utf8').catch(() => '')));
	const host = hostOf({ ...manifest.devDependencies, ...manifest.dependencies }, configs);
	return {
		root,
		// SvelteKit 3 has no $lib alias: the plan maps #lib in package.json when the app lacks it.
		kit: {
			major,
			libImports: libImports || major >= 3,
			explicitEnv: major >= 3 || configs.some(enablesExplicitEnv),
			requestEvent: hasRequestEvent(installed, kitRange),
			resolve: hasResolve(installed, kitRange)
		},
		libDir,
		base: baseOf(configs),
		typescript: existsSync(path.join(root, 'tsconfig.json')),
		packageManager,
		installRoot,
		packageJson,
		files,
		...(drizzle ? { drizzle } : {}),
		...(prisma ? { prisma } : {}),
		existingAuth: await detectExistingAuth(root, libDir, packageJson),
		...(host ? { host } : {})
	};
}

/**
 * The app-relative paths a manifest's text records (its files and conflicts), kept only when
 * they name a file inside the app in canonical form: a damaged or hand-edited manifest never
 * makes the loader read, nor the plan delete, a file elsewhere. Workspace root files
 * (`../../package.json`) are read where the install root is found instead.
 */
function recordedPaths(manifestText: string | undefined): string[] {
	const manifest = parseManifest(manifestText);
	if (!manifest) return [];
	const conflicts = Array.isArray(manifest.conflicts) ? manifest.conflicts : [];
	return [...Object.keys(manifest.files), ...conflicts].filter(
		(file: unknown): file is string =>
			typeof file === 'string' &&
			file !== '' &&
			path.posix.normalize(file) === file &&
			file.split('/')[0] !== '..' &&
			!path.posix.isAbsolute(file) &&
			!path.win32.isAbsolute(file) &&
			!file.includes('\\')
	);
}

/** Every file below `dir` (absent folder: none), keyed by `prefix/relative/path`. */
async function readTree(dir: string, prefix: string): Promise<Record<string, string>> {
	const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
	const files: Record<string, string> = {};
	for (const entry of entries) {
		if (!entry.isFile()) continue;
		const absolute = path.join(entry.parentPath, entry.name);
		files[`${prefix}/${path.relative(dir, absolute).split(path.sep).join('/')}`] = await readFile(absolute, 'utf8');
	}
	return files;
}

/**
 * The files of a Prisma schema folder, app-relative POSIX: every `.prisma` file below it, and
 * {@link PRISMA_MODELS_FILE} (create-auth's, absent before a first run); none when it is no folder.
 */
async function prismaSchemaFiles(root: string, folder: string): Promise<string[]> {
	const entries = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true }).catch(() => []);
	const found = entries
		.filter((entry) => entry.isFile() && entry.name.endsWith('.prisma'))
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
	return entries.length === 0 ? [] : [...new Set([...found, `${folder}/${PRISMA_MODELS_FILE}`])];
}
