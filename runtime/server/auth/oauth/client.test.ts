import { describe, expect, it } from 'vitest';
import { allowsInsecureRequests } from './client.js';

describe('allowsInsecureRequests', () => {
	it('allows http only when every http URL is on this machine', () => {
		expect(allowsInsecureRequests(['http://127.0.0.1:9400', 'http://localhost:9400/oauth2/token'])).toBe(true);
		expect(allowsInsecureRequests(['http://127.0.0.1:9400', 'http://idp.example/token'])).toBe(false);
		expect(allowsInsecureRequests(['https://idp.example', undefined])).toBe(false);
		expect(allowsInsecureRequests(['http://[::1]:9400'])).toBe(true);
	});
});
