import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadRuntime, type TextFiles } from './assets.js';

/**
 * Reads the vendored runtime of published create-auth releases, for regenerate's merge base of
 * a runtime file the user edited (the manifest records runtime files by digest only). Each
 * release is packed by the app's npm (`npm pack create-auth@<version>`, which honours the
 * user's registry settings and keeps the tarball in npm's cache, so asking again works offline)
 * and unpacked into a temporary folder that is removed at once; a version is fetched once per run.
 *
 * @param spec the package spec npm packs for a version (default `create-auth@<version>`; tests
 *   give a local tarball)
 * @returns a loader for {@link PlanInput.release}: the release's runtime, keyed as
 *   {@link loadRuntime} keys it, or undefined when npm cannot get it (offline without a cached
 *   copy, an unknown version, no npm); it never throws
 * @see docs/architecture.md#the-manifest
 */
export function releaseRuntimes(spec: (version: string) => string = (version) => `create-auth@${version}`): (version: string) => Promise<TextFiles | undefined> {
	const loaded = new Map<string, Promise<TextFiles | undefined>>();
	return (version) => {
		let runtime = loaded.get(version);
		if (!runtime) {
			runtime = packedRuntime(spec(version)).catch(() => undefined);
			loaded.set(version, runtime);
		}
		return runtime;
	};
}

async function packedRuntime(spec: string): Promise<TextFiles | undefined> {
	const [{ execa }, tar] = await Promise.all([import('execa'), import('tar')]);
	const folder = await mkdtemp(path.join(tmpdir(), 'create-auth-release-'));
	try {
		await execa('npm', ['pack', spec, '--prefer-offline', '--ignore-scripts', '--pack-destination', folder], { cwd: folder, timeout: 120_000, stdin: 'ignore' });
		const tarball = (await readdir(folder)).find((name) => name.endsWith('.tgz'));
		if (!tarball) return undefined;
		await tar.x({ file: path.join(folder, tarball), cwd: folder, filter: (entry) => entry.startsWith('package/runtime/') });
		return await loadRuntime(path.join(folder, 'package'));
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}
