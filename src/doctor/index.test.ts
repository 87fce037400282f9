import { describe, expect, it } from 'vitest';
import { envSources } from './check.js';
import type { DoctorInput } from './gather.js';
import { runChecks } from './index.js';

const input = (extra: Partial<DoctorInput> = {}): DoctorInput => ({
	manifest: {
		version: '1.0.0',
		answers: { providers: ['credentials', 'github'], strategy: 'jwt', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory' },
		files: {},
		pending: []
	},
	manifestDamaged: false,
	toolVersion: '1.0.0',
	libDir: 'src/lib',
	explicitEnv: false,
	dependencies: { '@sveltejs/adapter-node': '^5.0.0' },
	files: {},
	env: envSources(),
	adapter: { adapter: 'sqlite', drivers: [{ name: 'better-sqlite3', resolved: true }], files: [] },
	install: { manager: 'npm', root: '/app', installRoot: '/app', lockFiles: ['package-lock.json'] },
	...extra
});

describe('runChecks', () => {
	it('reports only the manifest error when create-auth has not set up the app', () => {
		expect(runChecks(input({ manifest: undefined }))).toEqual([expect.objectContaining({ id: 'manifest', status: 'error' })]);
	});

	it('runs every family, each id once', () => {
		const ids = runChecks(input()).map((check) => check.id);
		expect(ids).toEqual([
			'manifest',
			'conflicts',
			'manifest-version',
			'pending',
			'runtime-edited',
			'runtime-deleted',
			'auth-secret',
			'auth-secret-1',
			'auth-secret-production',
			'auth-url',
			'trusted-origin',
			'callback-url:github',
			'env-missing:AUTH_GITHUB_ID',
			'env-missing:AUTH_GITHUB_SECRET',
			'email-server',
			'adapter-driver',
			'lock-file'
		]);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('adds two-factor on apps set up with it', () => {
		const base = input();
		const manifest = { ...base.manifest!, answers: { ...base.manifest!.answers, twoFactor: true } };
		expect(runChecks({ ...base, manifest }).map((check) => check.id)).toContain('two-factor');
	});

	it('adds env-declared on apps with explicit environment variables', () => {
		expect(runChecks(input({ explicitEnv: true })).map((check) => check.id)).toContain('env-declared');
	});
});
