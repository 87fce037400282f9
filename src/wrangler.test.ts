import { describe, expect, it } from 'vitest';
import { addD1Database, authDatabase, readWranglerConfig } from './wrangler.js';

const DIR = 'src/lib/server/auth/adapters/migrations/d1';

// As `sv create` with the Cloudflare adapter writes it (comments, tabs, a trailing comma).
const JSONC = `/**
 * For more details on how to configure Wrangler, refer to:
 * https://developers.cloudflare.com/workers/wrangler/configuration/
 */
{
	"$schema": "node_modules/wrangler/config-schema.json",
	"name": "my-app",
	"main": ".svelte-kit/cloudflare/_worker.js",
	"compatibility_date": "2026-05-01",
	"assets": {
		"binding": "ASSETS",
		"directory": ".svelte-kit/cloudflare"
	}, // served before the Worker
}
`;

const TOML = `name = "my-app"
main = ".svelte-kit/cloudflare/_worker.js"
compatibility_date = "2026-05-01"
compatibility_flags = ["nodejs_als"] # AsyncLocalStorage

[assets]
binding = "ASSETS"
directory = ".svelte-kit/cloudflare"
`;

describe('the Wrangler config', () => {
	it('adds the D1 binding and nodejs_compat to wrangler.jsonc, every other byte kept', () => {
		const config = readWranglerConfig({ 'wrangler.jsonc': JSONC })!;
		const { database, added } = authDatabase(config, 'src/lib');
		expect(added).toBe(true);
		expect(database).toEqual({ binding: 'DB', database_name: 'my-app-auth', migrations_dir: DIR });
		const text = addD1Database(config, database);
		const again = readWranglerConfig({ 'wrangler.jsonc': text })!;
		expect(again.d1).toEqual([database]);
		expect(again.compatibilityFlags).toEqual(['nodejs_compat']);
		// The app's keys and comments are kept as they were (jsonc-parser appends after the last
		// property, before a comment that ends its line); the file reads as edited by hand.
		expect(text.startsWith(JSONC.slice(0, JSONC.indexOf('}, // served')))).toBe(true);
		expect(text).toContain('// served before the Worker');
		expect(text).toContain('\t"d1_databases": [\n\t\t{\n\t\t\t"binding": "DB",');
		// A second run finds its own entry by the migrations folder, and changes nothing.
		expect(authDatabase(again, 'src/lib')).toEqual({ database, added: false });
		expect(addD1Database(again, database)).toBe(text);
	});

	it('adds them to wrangler.toml: the flag into the root array, the table at the end', () => {
		const config = readWranglerConfig({ 'wrangler.toml': TOML })!;
		const { database } = authDatabase(config, 'src/lib');
		const text = addD1Database(config, database);
		expect(text).toBe(
			TOML.replace('["nodejs_als"]', '["nodejs_als", "nodejs_compat"]') +
				`\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "my-app-auth"\nmigrations_dir = "${DIR}"\n`
		);
		const again = readWranglerConfig({ 'wrangler.toml': text })!;
		expect(again.d1).toEqual([database]);
		expect(addD1Database(again, database)).toBe(text);
	});

	it('puts a new compatibility_flags key before the first TOML table, where a root key must be', () => {
		const toml = TOML.replace('compatibility_flags = ["nodejs_als"] # AsyncLocalStorage\n', '');
		const config = readWranglerConfig({ 'wrangler.toml': toml })!;
		const text = addD1Database(config, authDatabase(config, 'src/lib').database);
		expect(readWranglerConfig({ 'wrangler.toml': text })!.compatibilityFlags).toEqual(['nodejs_compat']);
		expect(text.indexOf('compatibility_flags')).toBeLessThan(text.indexOf('[assets]'));
	});

	it("binds create-auth's database as AUTH_DB beside the app's own D1 database", () => {
		const jsonc = JSONC.replace('"assets"', '"d1_databases": [{ "binding": "DB", "database_name": "shop", "migrations_dir": "migrations" }],\n\t"assets"');
		const config = readWranglerConfig({ 'wrangler.jsonc': jsonc })!;
		const { database } = authDatabase(config, 'src/lib');
		expect(database.binding).toBe('AUTH_DB');
		expect(readWranglerConfig({ 'wrangler.jsonc': addD1Database(config, database) })!.d1.map((entry) => entry.binding)).toEqual(['DB', 'AUTH_DB']);
	});

	it('refuses a config that does not parse with E_WRANGLER_CONFIG, and one whose AUTH_DB is not ours', () => {
		expect(() => readWranglerConfig({ 'wrangler.jsonc': '{ "name": ' })).toThrow(expect.objectContaining({ code: 'E_WRANGLER_CONFIG' }));
		expect(() => readWranglerConfig({ 'wrangler.toml': 'name = ' })).toThrow(expect.objectContaining({ code: 'E_WRANGLER_CONFIG' }));
		const both = readWranglerConfig({ 'wrangler.json': '{ "d1_databases": [{ "binding": "DB" }, { "binding": "AUTH_DB" }] }' })!;
		expect(() => authDatabase(both, 'src/lib')).toThrow(expect.objectContaining({ code: 'E_WRANGLER_CONFIG' }));
	});

	it('reads wrangler.jsonc before wrangler.toml, as Wrangler does, and nothing when there is neither', () => {
		expect(readWranglerConfig({ 'wrangler.toml': TOML, 'wrangler.jsonc': JSONC })?.path).toBe('wrangler.jsonc');
		expect(readWranglerConfig({ 'wrangler.jsonc': undefined })).toBeUndefined();
	});
});
