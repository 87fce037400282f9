import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { releaseRuntimes } from './releases.js';

// Real `npm pack` runs, on the release tarball the repo keeps (e2e/fixtures/releases): npm packs
// a local tarball as it packs a registry spec, without the network.
const TARBALL = fileURLToPath(new URL('../e2e/fixtures/releases/create-auth-0.1.0.tgz', import.meta.url));

describe('releaseRuntimes', () => {
	it("reads a release's vendored runtime as npm packs it, once per version", async () => {
		const specs: string[] = [];
		const load = releaseRuntimes((version) => (specs.push(version), TARBALL));
		const runtime = await load('0.1.0');
		const shipped = execFileSync('tar', ['-xzOf', TARBALL, 'package/runtime/server/auth/session.ts'], { encoding: 'utf8' });
		expect(runtime?.['server/auth/session.ts']).toBe(shipped);
		expect(Object.keys(runtime ?? {}).every((key) => !key.startsWith('package/') && !key.endsWith('.test.ts'))).toBe(true);
		expect(await load('0.1.0')).toBe(runtime);
		expect(specs).toEqual(['0.1.0']);
	}, 60_000);

	it('gives undefined, never throwing, for a release npm cannot get', async () => {
		const load = releaseRuntimes(() => fileURLToPath(new URL('../e2e/fixtures/releases/create-auth-9.9.9.tgz', import.meta.url)));
		await expect(load('9.9.9')).resolves.toBeUndefined();
	}, 60_000);
});
