import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { hostOf, productionStep } from './hosts.js';

describe('hostOf', () => {
	it('reads the host from the SvelteKit adapter, adapter-node and adapter-auto before a platform’s', () => {
		expect(hostOf({ '@sveltejs/adapter-vercel': '^5.0.0' })?.name).toBe('Vercel');
		expect(hostOf(['@sveltejs/adapter-netlify'])).toMatchObject({ name: 'Netlify', serverless: true, platformEnv: true });
		expect(hostOf(['@sveltejs/adapter-vercel', '@sveltejs/adapter-node'])).toMatchObject({ adapter: '@sveltejs/adapter-node', serverless: false });
		expect(hostOf(['@sveltejs/adapter-static'])).toBeUndefined();
		expect(hostOf({})).toBeUndefined();
	});

	it('takes the adapter the SvelteKit config imports over the others listed (adapter-auto left in devDependencies)', () => {
		const config = "import adapter from '@sveltejs/adapter-vercel';\nexport default { kit: { adapter: adapter() } };";
		expect(hostOf(['@sveltejs/adapter-auto', '@sveltejs/adapter-vercel'], ['', config])?.name).toBe('Vercel');
		expect(hostOf(['@sveltejs/adapter-auto', '@sveltejs/adapter-vercel'], ['// adapter-vercel one day'])?.adapter).toBe('@sveltejs/adapter-auto');
	});
});

describe('productionStep', () => {
	it('on a platform, lists AUTH_SECRET and the servers the answers need, for its settings', () => {
		const vercel = hostOf(['@sveltejs/adapter-vercel']);
		expect(productionStep(vercel, { ...DEFAULT_ANSWERS, adapter: 'postgres', rateLimit: 'redis' })).toBe(
			"On Vercel, set AUTH_SECRET, DATABASE_URL and REDIS_URL in the project's environment settings (a build does not carry .env)."
		);
		expect(productionStep(hostOf(['@sveltejs/adapter-netlify']), DEFAULT_ANSWERS)).toBe("On Netlify, set AUTH_SECRET in the project's environment settings (a build does not carry .env).");
	});

	it('on Cloudflare, puts AUTH_SECRET in a Worker secret and the D1 tables in the deployed database', () => {
		const cloudflare = hostOf(['@sveltejs/adapter-cloudflare']);
		expect(productionStep(cloudflare, { ...DEFAULT_ANSWERS, adapter: 'd1', rateLimit: 'd1' }, 'DB')).toBe(
			"On Cloudflare, set AUTH_SECRET as a secret: npx wrangler secret put AUTH_SECRET (a build does not carry .env), and before the first deploy create the auth tables in Cloudflare's D1: npx wrangler d1 migrations apply DB --remote."
		);
		expect(productionStep(cloudflare, DEFAULT_ANSWERS)).toBe('On Cloudflare, set AUTH_SECRET as a secret: npx wrangler secret put AUTH_SECRET (a build does not carry .env).');
	});

	it('elsewhere, says the server environment needs AUTH_SECRET', () => {
		expect(productionStep(hostOf(['@sveltejs/adapter-node']), DEFAULT_ANSWERS)).toBe("In production, set AUTH_SECRET and AUTH_URL (the app's public URL) in the server's environment: a build does not carry .env.");
		expect(productionStep(undefined, DEFAULT_ANSWERS)).toMatch(/^In production, set AUTH_SECRET/);
	});
});
