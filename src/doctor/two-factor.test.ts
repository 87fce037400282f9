import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest.js';
import { twoFactorChecks } from './two-factor.js';

const PAGE = 'src/routes/signin/two-factor/+page.server.ts';
const manifest = (twoFactor: boolean): Manifest => ({
	version: '1.0.0',
	answers: { providers: ['credentials'], strategy: 'database', adapter: 'sqlite', protect: ['/account'], rateLimit: 'memory', twoFactor },
	files: { [PAGE]: { strategy: 'merge', content: 'page' } },
	pending: []
});
const files = { 'src/auth.ts': 'export const config = { twoFactor: TwoFactor() };', [PAGE]: 'page' };
const dependencies = { otpauth: '^9.4.0', uqr: '^0.1.2' };

describe('twoFactorChecks', () => {
	it('is ok with TwoFactor() in src/auth.ts, the second step’s page and both packages', () => {
		expect(twoFactorChecks({ manifest: manifest(true), files, dependencies })).toEqual([expect.objectContaining({ id: 'two-factor', status: 'ok' })]);
	});

	it('reports nothing in an app without two-factor', () => {
		expect(twoFactorChecks({ manifest: manifest(false), files: {}, dependencies: {} })).toEqual([]);
	});

	it('is an error when src/auth.ts lost TwoFactor(): users with it on would sign in without their code', () => {
		const [check] = twoFactorChecks({ manifest: manifest(true), files: { ...files, 'src/auth.ts': 'export const config = {};' }, dependencies });
		expect(check).toMatchObject({ status: 'error', message: expect.stringMatching(/src\/auth\.ts passes no TwoFactor\(\).*without their code/), hint: expect.stringContaining('remove-feature two-factor') });
	});

	it('is an error when the second step’s page is gone, with the command that restores it', () => {
		const [check] = twoFactorChecks({ manifest: manifest(true), files: { ...files, [PAGE]: undefined }, dependencies });
		expect(check).toMatchObject({ status: 'error', message: expect.stringContaining(`${PAGE} is missing`), hint: expect.stringContaining(`regenerate --restore ${PAGE}`) });
	});

	it('is an error when a package it needs is not in package.json', () => {
		const [check] = twoFactorChecks({ manifest: manifest(true), files, dependencies: { otpauth: '^9.4.0' } });
		expect(check).toMatchObject({ status: 'error', message: expect.stringContaining('needs uqr'), hint: 'Install uqr with your package manager.' });
	});
});
