import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADAPTER_IDS } from './adapters.js';
import { failingNpm, fixtureCopy, run, snapshot } from './test/binary.js';

// Each test runs the built binary several times, a few seconds each on a loaded 2-core machine.
describe('create-auth (the binary)', { timeout: 30_000 }, () => {
	it.each([
		['credentials', '/signup to create an account'],
		['passkey', '/signup to create an account'],
		['github', '/signin, then']
	])('--providers %s: the next steps open %s (a sign-up page from any provider, passkeys alone too)', async (providers, opens) => {
		const dir = await fixtureCopy();
		const result = await run(dir, '--yes', '--no-install', '--providers', providers);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain(`run dev, then open ${opens}`);
		await rm(dir, { recursive: true });
	});

	it('switch: wired with its options; --dry-run on a Better Auth app prints the plan and writes nothing; a bad --strategy is refused', async () => {
		const dir = await fixtureCopy(fileURLToPath(new URL('../e2e/fixtures/kit2-better-auth', import.meta.url)));
		const before = await snapshot(dir);
		const dry = await run(dir, 'switch', '--dry-run', '--yes', '--from', 'better-auth');
		expect(dry.code, dry.stderr).toBe(0);
		expect(dry.stdout).toContain('create-auth takes its place: credentials; database sessions; drizzle.');
		const bad = await run(dir, 'switch', '--strategy', 'cookie');
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain('[E_UNSUPPORTED_STRATEGY]');
		expect(await snapshot(dir)).toEqual(before);
		await rm(dir, { recursive: true });
	});

	it.each([
		['no package.json', null],
		['a package.json without @sveltejs/kit', '{"name":"x","dependencies":{"react":"^19.0.0"}}'],
		['a package.json that is not JSON', '{ nope']
	])('refuses outside a SvelteKit app (%s) with E_NOT_SVELTEKIT and exit 1', async (_, packageJson) => {
		const dir = await mkdtemp(path.join(tmpdir(), 'create-auth-cli-'));
		if (packageJson) await writeFile(path.join(dir, 'package.json'), packageJson);
		const before = await snapshot(dir);
		const result = await run(dir, '--yes', '--no-install');
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('[E_NOT_SVELTEKIT]');
		expect(result.stderr).toContain('SvelteKit');
		expect(result.stderr).not.toMatch(/\n\s+at /);
		expect(await snapshot(dir)).toEqual(before);
	});

	it('migrate: with the Drizzle adapter in an app whose Drizzle setup is gone, fails with E_DRIZZLE_MISSING and runs nothing', async () => {
		const dir = await fixtureCopy(fileURLToPath(new URL('../e2e/fixtures/kit2-existing', import.meta.url)));
		const setUp = await run(dir, '--yes', '--no-install', '--strategy', 'database');
		expect(setUp.code, setUp.stderr).toBe(0);
		expect(JSON.parse(await readFile(path.join(dir, '.create-auth/manifest.json'), 'utf8')).answers.adapter).toBe('drizzle');
		await rm(path.join(dir, 'drizzle.config.ts'));
		const result = await run(dir, 'migrate');
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('[E_DRIZZLE_MISSING]');
		expect(await readdir(path.join(dir, '.create-auth'))).toEqual(['manifest.json']);
	});

	it('rejects an unknown provider with E_UNKNOWN_PROVIDER, writing nothing', async () => {
		const dir = await fixtureCopy();
		const before = await snapshot(dir);
		const result = await run(dir, '--yes', '--no-install', '--providers', 'credentials,myspace');
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('Unknown provider "myspace". [E_UNKNOWN_PROVIDER]');
		expect(await snapshot(dir)).toEqual(before);
	});

	it('--rate-limit redis: records the store, vendors it, imports it in src/auth.ts and writes REDIS_URL; an unknown store writes nothing', async () => {
		const dir = await fixtureCopy();
		const before = await snapshot(dir);
		const unknown = await run(dir, '--yes', '--no-install', '--rate-limit', 'valkey');
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toContain('Unknown rate-limit store "valkey". [E_UNKNOWN_RATE_LIMIT_STORE]');
		expect(unknown.stderr).toContain('redis');
		expect(await snapshot(dir)).toEqual(before);

		const result = await run(dir, '--yes', '--no-install', '--rate-limit', 'redis');
		expect(result.code, result.stderr).toBe(0);
		const files = await snapshot(dir);
		expect(JSON.parse(files['.create-auth/manifest.json']!).answers.rateLimit).toBe('redis');
		expect(files['src/lib/server/auth/limits/redis.ts']).toContain('export function redisRateLimitStore(');
		expect(files['src/auth.ts']).toContain('rateLimit: { store: redisRateLimitStore({ url: env.REDIS_URL');
		expect(files['.env']).toMatch(/^REDIS_URL=redis:\/\/127\.0\.0\.1:6379$/m);
		expect(JSON.parse(files['package.json']!).dependencies.ioredis).toBeDefined();
	});

	it('regenerate --rate-limit moves a set-up app to Redis and back, keeping the user\'s edits to src/auth.ts', async () => {
		const dir = await fixtureCopy();
		expect((await run(dir, '--yes', '--no-install')).code).toBe(0);
		const auth = path.join(dir, 'src/auth.ts');
		const mine = (await readFile(auth, 'utf8')).replace('\t\tsecret: [', '\t\tdebug: true,\n\t\tsecret: [');
		await writeFile(auth, mine);

		// Asked of the first command, the new store is refused, with the command that does it.
		const refused = await run(dir, '--yes', '--no-install', '--rate-limit', 'redis');
		expect(refused.code).toBe(1);
		expect(refused.stderr).toContain('[E_ALREADY_SET_UP]');
		expect(refused.stderr).toContain('npx create-auth regenerate --rate-limit redis');
		const before = await snapshot(dir);
		const unknown = await run(dir, 'regenerate', '--no-install', '--rate-limit', 'valkey');
		expect(unknown.stderr).toContain('[E_UNKNOWN_RATE_LIMIT_STORE]');
		expect(await snapshot(dir)).toEqual(before);

		const toRedis = await run(dir, 'regenerate', '--no-install', '--rate-limit', 'redis');
		expect(toRedis.code, toRedis.stderr).toBe(0);
		let files = await snapshot(dir);
		expect(JSON.parse(files['.create-auth/manifest.json']!).answers.rateLimit).toBe('redis');
		expect(files['src/lib/server/auth/limits/redis.ts']).toContain('export function redisRateLimitStore(');
		expect(files['src/auth.ts']).toContain("import { redisRateLimitStore } from '$lib/server/auth/rate-limit-redis';");
		expect(files['src/auth.ts']).toContain('rateLimit: { store: redisRateLimitStore({ url: env.REDIS_URL');
		expect(files['src/auth.ts']).toContain('debug: true,');
		expect(files['.env']).toMatch(/^REDIS_URL=redis:\/\/127\.0\.0\.1:6379$/m);
		expect(JSON.parse(files['package.json']!).dependencies.ioredis).toBeDefined();
		expect(toRedis.stdout + toRedis.stderr).toContain('run npm install');
		expect((await run(dir, 'regenerate', '--no-install', '--rate-limit', 'redis')).stdout).toContain('Nothing to write');

		const toMemory = await run(dir, 'regenerate', '--no-install', '--rate-limit', 'memory');
		expect(toMemory.code, toMemory.stderr).toBe(0);
		files = await snapshot(dir);
		expect(JSON.parse(files['.create-auth/manifest.json']!).answers.rateLimit).toBe('memory');
		expect(files['src/lib/server/auth/rate-limit-redis.ts']).toBeUndefined();
		expect(files['src/lib/server/auth/limits/redis.ts']).toBeUndefined();
		expect(files['src/auth.ts']).toBe(mine);
		expect(toMemory.stdout + toMemory.stderr).toContain('ioredis in package.json and REDIS_URL in .env were left in place');
		expect(JSON.parse(files['package.json']!).dependencies.ioredis).toBeDefined();
	});

	it('--providers email: vendors the email provider with nodemailer, writes its pages and EMAIL_* keys once; an app with neither email nor credentials gets none of it', async () => {
		const dir = await fixtureCopy();
		const result = await run(dir, '--yes', '--no-install', '--providers', 'credentials,email');
		expect(result.code, result.stderr).toBe(0);
		// The next steps are a wrapped box: compare the words.
		const steps = result.stdout.replace(/[│\s]+/g, ' ');
		// Said once for both providers.
		expect(steps.split("Mail (sign-in, password-reset and confirmation links) is printed to the dev server's log until EMAIL_SERVER and EMAIL_FROM are set in .env.")).toHaveLength(2);
		const files = await snapshot(dir);
		expect(files['src/lib/server/auth/email/smtp.ts']).toContain("from 'nodemailer'");
		expect(files['src/lib/server/auth/providers/email.ts']).toContain("from '../email/smtp.js'");
		expect(files['src/auth.ts']).toContain('const mailer = smtpMailer({ server: env.EMAIL_SERVER, from: env.EMAIL_FROM });');
		expect(files['src/auth.ts']).toContain('const email = Email({ server: env.EMAIL_SERVER, from: env.EMAIL_FROM });');
		expect(files['src/auth.ts']).toContain('providers: [credentials, email],\n\t\tmailer,\n');
		expect(files['src/auth.ts']).toContain(
			'export const { handle, signIn, signOut, signUp, requestPasswordReset, resetPassword, changePassword, setPassword, verifyEmail, emailLink } = SvelteKitAuth('
		);
		const pages = ['signin/email/+page.server.ts', 'signin/email/+page.svelte', 'signin/verify-request/+page.svelte'];
		for (const page of [...pages, 'signin/forgot-password/+page.svelte', 'signin/reset-password/+page.server.ts']) {
			expect(files[`src/routes/${page}`], page).toBeDefined();
		}
		expect(files['src/routes/signin/+page.svelte']).toContain('Sign in with Email');
		expect(files['.env']!.match(/^EMAIL_SERVER=$/gm)).toHaveLength(1);
		expect(files['.env']!.match(/^EMAIL_FROM=$/gm)).toHaveLength(1);
		const pkg = JSON.parse(files['package.json']!);
		expect(pkg.dependencies.nodemailer).toBeDefined();
		expect(pkg.devDependencies['@types/nodemailer']).toBeDefined();

		const oauthOnly = await fixtureCopy();
		expect((await run(oauthOnly, '--yes', '--no-install', '--providers', 'github')).code).toBe(0);
		const oauthFiles = await snapshot(oauthOnly);
		expect(oauthFiles['src/lib/server/auth/providers/email.ts']).toBeUndefined();
		expect(oauthFiles['src/lib/server/auth/mail-smtp.ts']).toBeUndefined();
		expect(oauthFiles['src/lib/server/auth/signin/email.ts']).toBeUndefined(); // the email flow comes with the email provider only
		expect(JSON.parse(oauthFiles['package.json']!).dependencies.nodemailer).toBeUndefined();
		expect(oauthFiles['.env']).not.toContain('EMAIL_SERVER');
		expect(oauthFiles['src/routes/signin/+page.svelte']).not.toContain('Sign in with Email');
		// With no form of its own, the page says so while every button is hidden (keys still empty); with one, it never needs to.
		expect(oauthFiles['src/routes/signin/+page.svelte']).toContain('Sign-in is not set up yet.');
		expect(files['src/routes/signin/+page.svelte']).not.toContain('Sign-in is not set up yet.');
		expect(oauthFiles['src/routes/signin/forgot-password/+page.svelte']).toBeUndefined();
	});

	it('--help documents --rate-limit with both stores and the defaults (redis on the serverless hosts)', async () => {
		const help = await run(tmpdir(), '--help');
		expect(help.code).toBe(0);
		expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/--rate-limit <store> .*memory .*redis.*REDIS_URL.*d1.*\(default memory; redis with adapter-vercel or adapter-netlify, d1 with adapter-cloudflare\)/);
	});

	it('--help names every adapter --adapter takes, and its defaults', async () => {
		const help = (await run(tmpdir(), '--help')).stdout.replace(/\s+/g, ' ');
		const adapter = /--adapter <id> (.*?) --database-url/.exec(help)?.[1] ?? '';
		for (const id of ADAPTER_IDS) expect(adapter).toContain(id);
		expect(adapter).toContain('(default: drizzle or prisma when the app has its own, postgres with adapter-vercel or adapter-netlify, d1 with adapter-cloudflare, else sqlite)');
	});

	describe('an app that deploys to Cloudflare (adapter-cloudflare)', () => {
		/** kit2-ts on adapter-cloudflare, with the Wrangler config given (none: the app has none). */
		async function cloudflareApp(config?: { file: string; text: string }): Promise<string> {
			const dir = await fixtureCopy();
			const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
			delete manifest.devDependencies['@sveltejs/adapter-auto'];
			manifest.devDependencies['@sveltejs/adapter-cloudflare'] = '^7.2.9';
			await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest, null, '\t'));
			const vite = path.join(dir, 'vite.config.ts');
			await writeFile(vite, (await readFile(vite, 'utf8')).replace("'@sveltejs/adapter-auto'", "'@sveltejs/adapter-cloudflare'"));
			if (config) await writeFile(path.join(dir, config.file), config.text);
			return dir;
		}

		it('chooses D1 for users and rate limits, binds DB in wrangler.toml with nodejs_compat, and vendors its migrations', async () => {
			const toml = 'name = "shop"\nmain = ".svelte-kit/cloudflare/_worker.js"\ncompatibility_date = "2026-05-01"\n\n[assets]\nbinding = "ASSETS"\ndirectory = ".svelte-kit/cloudflare"\n';
			const dir = await cloudflareApp({ file: 'wrangler.toml', text: toml });
			const result = await run(dir, '--yes', '--no-install');
			expect(result.code, result.stderr).toBe(0);
			const files = await snapshot(dir);
			expect(JSON.parse(files['.create-auth/manifest.json']!).answers).toMatchObject({ adapter: 'd1', rateLimit: 'd1' });
			expect(files['src/auth.ts']).toContain("export const adapter = D1Adapter({ binding: 'DB', getRequestEvent });");
			expect(files['src/auth.ts']).toContain("rateLimit: { store: d1RateLimitStore({ binding: 'DB', getRequestEvent }) }");
			expect(files['wrangler.toml']).toBe(
				toml.replace('\n\n[assets]', '\ncompatibility_flags = ["nodejs_compat"]\n\n[assets]') +
					'\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "shop-auth"\nmigrations_dir = "src/lib/server/auth/adapters/migrations/d1"\n'
			);
			expect(Object.keys(files).filter((file) => file.includes('migrations/'))).toEqual([
				'src/lib/server/auth/adapters/migrations/d1/0001_create_auth_tables.sql',
				'src/lib/server/auth/adapters/migrations/d1/0002_rate_limits.sql'
			]);
			expect(files['src/lib/server/auth/adapters/sqlite.ts']).toBeUndefined();
			expect(JSON.parse(files['package.json']!).dependencies['better-sqlite3']).toBeUndefined();
			expect((await run(dir, '--yes', '--no-install')).stdout).toContain('Nothing to write');
		});

		it('writes wrangler.jsonc for an app that has none, and binds AUTH_DB beside a D1 database of the app\'s own', async () => {
			const bare = await cloudflareApp();
			expect((await run(bare, '--yes', '--no-install')).code).toBe(0);
			const written = (await snapshot(bare))['wrangler.jsonc']!;
			expect(JSON.parse(written.replace(/^\/\/.*\n/, ''))).toMatchObject({
				name: 'svtest',
				main: '.svelte-kit/cloudflare/_worker.js',
				compatibility_flags: ['nodejs_compat'],
				assets: { binding: 'ASSETS', directory: '.svelte-kit/cloudflare' },
				d1_databases: [{ binding: 'DB', database_name: 'svtest-auth', migrations_dir: 'src/lib/server/auth/adapters/migrations/d1' }]
			});

			const own = await cloudflareApp({ file: 'wrangler.json', text: '{ "name": "shop", "compatibility_flags": ["nodejs_compat"], "d1_databases": [{ "binding": "DB", "database_name": "shop" }] }\n' });
			expect((await run(own, '--yes', '--no-install')).code).toBe(0);
			const files = await snapshot(own);
			expect(JSON.parse(files['wrangler.json']!).d1_databases.map((entry: { binding: string }) => entry.binding)).toEqual(['DB', 'AUTH_DB']);
			expect(files['src/auth.ts']).toContain("D1Adapter({ binding: 'AUTH_DB', getRequestEvent })");
		});

		it('refuses --rate-limit d1 with another adapter, and a Wrangler config that does not parse, writing nothing', async () => {
			const dir = await cloudflareApp({ file: 'wrangler.jsonc', text: '{ "name": ' });
			const before = await snapshot(dir);
			const broken = await run(dir, '--yes', '--no-install');
			expect(broken.code).toBe(1);
			expect(broken.stderr).toContain('[E_WRANGLER_CONFIG]');
			const mismatch = await run(dir, '--yes', '--no-install', '--adapter', 'sqlite', '--rate-limit', 'd1');
			expect(mismatch.code).toBe(1);
			expect(mismatch.stderr).toContain('The sqlite adapter cannot keep rate-limit counters');
			expect(await snapshot(dir)).toEqual(before);
		});
	});

	it('--cwd points at the app; a second run writes nothing', async () => {
		const dir = await fixtureCopy();
		const first = await run(tmpdir(), '--cwd', dir, '--yes', '--no-install');
		expect(first.code).toBe(0);
		const after = await snapshot(dir);
		expect(after['src/auth.ts']).toContain('SvelteKitAuth(');
		const second = await run(dir, '--yes', '--no-install');
		expect(second.code).toBe(0);
		expect(second.stdout).toContain('Nothing to write');
		expect(await snapshot(dir)).toEqual(after);
	});

	it('restores every file when the dependency install fails', async () => {
		const dir = await fixtureCopy();
		const before = await snapshot(dir);
		const result = await run(dir, { PATH: await failingNpm() }, '--yes');
		expect(result.code).toBe(1);
		expect(result.stderr).toContain('[E_INSTALL_FAILED]');
		expect(result.stderr).toContain('simulated failure');
		expect(await snapshot(dir)).toEqual(before);
	});
});
