// @ts-check
/**
 * An earlier release of create-auth, as npm would install it, to set apps up with and then
 * upgrade with this version (`regenerate`): the upgrade corpus (issue 27).
 *
 * The release is kept in the repo as the tarball `npm pack` made of it
 * (`e2e/fixtures/releases/create-auth-<version>.tgz`), so a clone without tags has it. It is
 * unpacked once into `.cache/releases/<version>/package` and runs on this repo's
 * `node_modules`: its dependencies are the ones this repo had then (checked below).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './app.js';

/**
 * The release before issue 27's reshape (git tag `pre-reshape`, commit 209d684): the runtime as
 * one flat folder, provider knowledge spread over the CLI.
 */
export const PRE_RESHAPE = '0.1.0';

/**
 * The CLI entry of an earlier release, unpacked on first use.
 * @param {string} version a tarball under `e2e/fixtures/releases/`
 * @returns {string} absolute path of its `bin/create-auth.js`
 * @throws {Error} when the tarball is missing, or the release needs a dependency this repo's
 *   `node_modules` lacks (it could not run)
 */
export function releaseBin(version) {
	const tarball = path.join(repoRoot, 'e2e', 'fixtures', 'releases', `create-auth-${version}.tgz`);
	const dir = path.join(repoRoot, '.cache', 'releases', version);
	const pkg = path.join(dir, 'package');
	if (!existsSync(path.join(pkg, 'node_modules'))) {
		// Unpacked aside and renamed into place: test files running at the same time may ask at once.
		mkdirSync(path.dirname(dir), { recursive: true });
		const staging = mkdtempSync(`${dir}.unpacking-`);
		try {
			execFileSync('tar', ['-xzf', tarball, '-C', staging]);
			symlinkSync(path.join(repoRoot, 'node_modules'), path.join(staging, 'package', 'node_modules'), 'dir');
			// A folder there without node_modules is a half-unpacked leftover: it is replaced.
			if (!existsSync(path.join(pkg, 'node_modules'))) rmSync(dir, { recursive: true, force: true });
			renameSync(staging, dir);
		} catch (error) {
			if (!existsSync(path.join(pkg, 'node_modules'))) throw error;
		} finally {
			rmSync(staging, { recursive: true, force: true });
		}
	}
	/** @type {{ dependencies: Record<string, string> }} */
	const manifest = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8'));
	const missing = Object.keys(manifest.dependencies).filter((name) => !existsSync(path.join(repoRoot, 'node_modules', name, 'package.json')));
	if (missing.length > 0) throw new Error(`create-auth ${version} needs ${missing.join(', ')}, which this repo's node_modules lacks`);
	return path.join(pkg, 'bin', 'create-auth.js');
}
