import { describe, expect, it } from 'vitest';
import { installChecks } from './install.js';

describe('installChecks', () => {
	it('is an error, with the fix, for a package-lock.json inside a package of a pnpm workspace', () => {
		const [check] = installChecks({ install: { manager: 'pnpm', root: '/repo/apps/web', installRoot: '/repo', lockFiles: ['package-lock.json'] } });
		expect(check).toEqual({
			id: 'lock-file',
			status: 'error',
			message: 'apps/web/package-lock.json is a second lock file inside a package of the pnpm workspace at /repo: pnpm does not read it, and it drifts from the root\'s.',
			hint: 'Delete apps/web/package-lock.json (and apps/web/node_modules, if an install in the app made it), then run pnpm install in /repo.'
		});
	});

	it('names every lock file the app has', () => {
		const [check] = installChecks({ install: { manager: 'npm', root: '/repo/apps/web', installRoot: '/repo', lockFiles: ['package-lock.json', 'yarn.lock'] } });
		expect(check).toMatchObject({ status: 'error', message: expect.stringContaining('apps/web/package-lock.json and apps/web/yarn.lock are more lock files') });
	});

	it('is ok for a workspace app without a lock file of its own, and for an app on its own with its lock file', () => {
		expect(installChecks({ install: { manager: 'pnpm', root: '/repo/apps/web', installRoot: '/repo', lockFiles: [] } })).toEqual([
			{ id: 'lock-file', status: 'ok', message: 'The app installs with the pnpm workspace at /repo, whose lock file is the only one.' }
		]);
		expect(installChecks({ install: { manager: 'npm', root: '/app', installRoot: '/app', lockFiles: ['package-lock.json'] } })[0]).toMatchObject({ status: 'ok' });
	});
});
