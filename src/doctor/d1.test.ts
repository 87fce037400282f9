import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from '../answers.js';
import { d1Checks } from './d1.js';

const answers = { ...DEFAULT_ANSWERS, adapter: 'd1' as const, rateLimit: 'd1' as const };
const CONFIG = {
	name: 'shop',
	compatibility_flags: ['nodejs_compat'],
	d1_databases: [{ binding: 'DB', database_name: 'shop-auth', migrations_dir: 'src/lib/server/auth/adapters/migrations/d1' }]
};
const input = (config: object | string | undefined, dependencies: Record<string, string> = { wrangler: '^4.86.0' }) => ({
	answers,
	libDir: 'src/lib',
	dependencies,
	files: { 'wrangler.jsonc': typeof config === 'object' ? JSON.stringify(config) : config }
});

describe('doctor on the D1 adapter', () => {
	it('is ok when the Wrangler config binds the auth database with nodejs_compat, naming the binding', () => {
		expect(d1Checks(input(CONFIG))).toEqual([{ id: 'd1', status: 'ok', message: "wrangler.jsonc binds the auth tables' D1 database as DB, with nodejs_compat." }]);
	});

	it('errors when the binding is gone, nodejs_compat is gone, there is no config, or it does not parse', () => {
		expect(d1Checks(input({ ...CONFIG, d1_databases: [] }))[0]).toMatchObject({ status: 'error', message: expect.stringContaining('binds no D1 database') });
		expect(d1Checks(input({ ...CONFIG, compatibility_flags: [] }))[0]).toMatchObject({ status: 'error', message: expect.stringContaining('nodejs_compat') });
		expect(d1Checks(input(undefined))[0]).toMatchObject({ status: 'error', message: expect.stringContaining('no Wrangler config') });
		expect(d1Checks(input('{ "name": '))[0]).toMatchObject({ status: 'error', message: expect.stringContaining('wrangler.jsonc cannot be read') });
	});

	it('warns when wrangler, which applies the migrations, is not a dependency; says nothing on other adapters', () => {
		expect(d1Checks(input(CONFIG, {}))[0]).toMatchObject({ status: 'warn', message: expect.stringContaining('does not depend on wrangler') });
		expect(d1Checks({ ...input(undefined), answers: DEFAULT_ANSWERS })).toEqual([]);
	});
});
