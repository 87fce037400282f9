import { describe, expect, it, vi } from 'vitest';
import { SvelteKitAuth } from './kit.js';

vi.mock('$app/environment', () => ({ building: true, dev: false, browser: false }));

describe('SvelteKitAuth while SvelteKit is building', () => {
	it('does not throw MissingSecret at construction, since the build has no runtime environment', () => {
		vi.stubEnv('AUTH_SECRET', '');
		expect(() => SvelteKitAuth({ providers: [] })).not.toThrow();
		vi.unstubAllEnvs();
	});
});
