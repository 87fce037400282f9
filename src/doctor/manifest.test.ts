import { describe, expect, it } from 'vitest';
import { digest, type Manifest } from '../manifest.js';
import { compareVersions, manifestCheck, manifestChecks } from './manifest.js';

const manifest = (extra: Partial<Manifest> = {}): Manifest => ({
	version: '1.2.0',
	answers: { providers: ['credentials', 'github'], strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' },
	files: {
		// One record as the manifest writes them (a digest), one of the older kind (the text).
		'src/lib/server/auth/kit.ts': { strategy: 'managed', sha256: digest('kit v1\n') },
		'src/lib/auth/SignIn.svelte': { strategy: 'managed', content: 'sign in v1\n' },
		'src/auth.ts': { strategy: 'merge', content: 'auth v1\n' },
		'src/hooks.server.ts': { strategy: 'patch', edits: ['handle'] }
	},
	pending: [],
	...extra
});
const runtimeOnDisk = { 'src/lib/server/auth/kit.ts': 'kit v1\n', 'src/lib/auth/SignIn.svelte': 'sign in v1\n', 'src/auth.ts': 'auth, edited\n' };
const checks = (m: Manifest, files: Record<string, string | undefined> = runtimeOnDisk, toolVersion = '1.2.0') =>
	manifestChecks({ manifest: m, files, toolVersion, libDir: 'src/lib' });
const byId = (list: ReturnType<typeof checks>, id: string) => list.find((check) => check.id === id);

describe('manifestCheck', () => {
	it('is the one error of an app create-auth has not set up', () => {
		expect(manifestCheck({ manifest: undefined, manifestDamaged: false })).toMatchObject({
			id: 'manifest',
			status: 'error',
			message: 'create-auth has not set up this app; run npx create-auth.'
		});
	});

	it('tells a damaged manifest apart from a missing one', () => {
		expect(manifestCheck({ manifest: undefined, manifestDamaged: true })).toMatchObject({ status: 'error', message: expect.stringContaining('not a create-auth manifest') });
	});

	it('sums up the answers when the manifest is there', () => {
		expect(manifestCheck({ manifest: manifest(), manifestDamaged: false })).toEqual({
			id: 'manifest',
			status: 'ok',
			message: 'Set up by create-auth 1.2.0: credentials, github; jwt sessions; sqlite adapter.'
		});
	});
});

describe('manifestChecks', () => {
	it('reports every family ok for an app as create-auth left it', () => {
		expect(checks(manifest()).map((c) => [c.id, c.status])).toEqual([
			['conflicts', 'ok'],
			['manifest-version', 'ok'],
			['pending', 'ok'],
			['runtime-edited', 'ok'],
			['runtime-deleted', 'ok']
		]);
	});

	it('names the conflict files that still hold markers, and only those', () => {
		const list = checks(manifest({ conflicts: ['src/auth.ts', 'src/routes/signin/+page.svelte', 'src/authorization.ts'] }), {
			...runtimeOnDisk,
			'src/auth.ts': 'a\n<<<<<<< yours\nb\n=======\nc\n>>>>>>> create-auth 1.3.0\n',
			'src/routes/signin/+page.svelte': 'resolved\n',
			'src/authorization.ts': undefined
		});
		expect(byId(list, 'conflicts')).toMatchObject({ status: 'error', message: expect.stringMatching(/^src\/auth\.ts still holds conflict markers/) });
	});

	it('does not take a line merely containing <<<<<<< for a marker', () => {
		const list = checks(manifest({ conflicts: ['src/auth.ts'] }), { ...runtimeOnDisk, 'src/auth.ts': "const arrow = '<<<<<<<';\n" });
		expect(byId(list, 'conflicts')?.status).toBe('ok');
	});

	it.each([
		['older', '1.1.9', 'warn', /regenerate/],
		['a pre-release of this version', '1.2.0-next.3', 'warn', /regenerate/],
		['newer', '1.10.0', 'warn', /create-auth@latest/],
		['the same', '1.2.0', 'ok', undefined]
	])('compares the manifest version with the tool (%s)', (_, version, status, hint) => {
		const check = byId(checks(manifest({ version })), 'manifest-version');
		expect(check?.status).toBe(status);
		if (hint) expect(check?.hint).toMatch(hint);
	});

	it('warns once per pending manual step, numbered from 1', () => {
		const list = checks(manifest({ pending: ['Compose the handle in src/hooks.server.ts.', 'Return the session from the root layout.'] }));
		expect(list.filter((c) => c.id.startsWith('pending'))).toEqual([
			expect.objectContaining({ id: 'pending:1', status: 'warn', message: 'To do by hand: Compose the handle in src/hooks.server.ts.' }),
			expect.objectContaining({ id: 'pending:2', status: 'warn', message: 'To do by hand: Return the session from the root layout.' })
		]);
	});

	it('lists runtime files edited on disk, not the user files the manifest also records', () => {
		const list = checks(manifest(), { ...runtimeOnDisk, 'src/lib/server/auth/kit.ts': 'kit v1, patched\n' });
		expect(byId(list, 'runtime-edited')).toMatchObject({ status: 'warn', message: expect.stringContaining('src/lib/server/auth/kit.ts'), hint: expect.stringContaining('regenerate merges your edits') });
		expect(byId(list, 'runtime-edited')?.message).not.toContain('src/auth.ts');
	});

	it('lists runtime files that are gone', () => {
		const list = checks(manifest(), { ...runtimeOnDisk, 'src/lib/auth/SignIn.svelte': undefined });
		expect(byId(list, 'runtime-deleted')).toMatchObject({ status: 'warn', message: expect.stringContaining('src/lib/auth/SignIn.svelte') });
		expect(byId(list, 'runtime-edited')?.status).toBe('ok');
	});

	it('finds the runtime below the app\'s own lib folder', () => {
		const m = manifest({ files: { 'app/lib/server/auth/kit.ts': { strategy: 'managed', content: 'kit\n' } } });
		const list = manifestChecks({ manifest: m, files: { 'app/lib/server/auth/kit.ts': 'changed\n' }, toolVersion: '1.2.0', libDir: 'app/lib' });
		expect(byId(list, 'runtime-edited')?.status).toBe('warn');
	});
});

describe('compareVersions', () => {
	it.each([
		['1.0.0', '1.0.0', 0],
		['1.0.0', '1.0.1', -1],
		['1.9.0', '1.10.0', -1],
		['2.0.0', '1.99.99', 1],
		['1.0.0-next.1', '1.0.0', -1],
		['1.0.0-next.2', '1.0.0-next.10', -1],
		['1.0.0-alpha', '1.0.0-beta', -1],
		['1.0.0+build.5', '1.0.0', 0]
	])('orders %s against %s as %i', (a, b, order) => {
		expect(compareVersions(a, b)).toBe(order);
		expect(compareVersions(b, a)).toBe(-order || 0);
	});
});
