import { describe, expect, it } from 'vitest';
import { installStep, providerSteps, shownBase } from './pipeline.js';

describe('providerSteps', () => {
	it("names the callback URL to register under the app's paths.base", () => {
		expect(providerSteps(['github'])[0]).toContain('register the callback URL http://localhost:5173/auth/callback/github');
		expect(providerSteps(['github'], '/base')[0]).toContain('register the callback URL http://localhost:5173/base/auth/callback/github');
		expect(providerSteps(['github'], null)[0]).toContain('register the callback URL http://localhost:5173<paths.base>/auth/callback/github');
	});

	it('has no callback URL for providers without one', () => {
		expect(providerSteps(['credentials', 'email'], '/base').join('\n')).not.toContain('callback');
	});
});

describe('shownBase', () => {
	it('shows a base as is, and a placeholder when only the build knows it', () => {
		expect([shownBase(''), shownBase('/base'), shownBase(null)]).toEqual(['', '/base', '<paths.base>']);
	});
});

describe('installStep', () => {
	it("names the workspace root when the install runs there, not in the app", () => {
		expect(installStep({ packageManager: 'npm', root: '/app', installRoot: '/app' })).toBe('npm install');
		expect(installStep({ packageManager: 'pnpm', root: '/repo/apps/web', installRoot: '/repo' })).toBe('pnpm install   (at the workspace root, /repo)');
	});
});
