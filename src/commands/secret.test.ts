import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'dotenv';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../runtime/server/auth/config.js';
import { decodeToken, encodeToken } from '../../runtime/server/auth/session/jwt.js';
import { CliError } from '../errors.js';
import { rotateSecret, secret } from './secret.js';

const OLD = 'o'.repeat(43);
const OLDER = 'p'.repeat(43);
/** What the generated src/auth.ts hands the runtime (see templates/auth.ts.hbs). */
const AUTH_TS = "export const { handle } = SvelteKitAuth({ secret: [env.AUTH_SECRET, env.AUTH_SECRET_1], providers: [] });\n";
const OLD_AUTH_TS = "export const { handle } = SvelteKitAuth({ secret: env.AUTH_SECRET, providers: [] });\n";
const DOTENV = [
	'# Database',
	'DATABASE_URL="postgres://localhost/app" # local',
	'',
	'# Encrypts session cookies; at least 32 random characters. Keep it secret.',
	`AUTH_SECRET=${OLD}`,
	'AUTH_GITHUB_ID=',
	'export OTHER = value  ',
	''
].join('\n');

let root: string;
let stdout: string[];

function writeApp(files: Record<string, string>): void {
	for (const [file, text] of Object.entries({ 'package.json': '{"devDependencies":{"@sveltejs/kit":"^2.5.0"}}', ...files })) {
		mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		writeFileSync(path.join(root, file), text);
	}
}
const readEnv = () => readFileSync(path.join(root, '.env'), 'utf8');

beforeEach(() => {
	root = mkdtempSync(path.join(tmpdir(), 'create-auth-secret-'));
	stdout = [];
	vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
		stdout.push(String(chunk));
		return true;
	});
	vi.stubEnv('AUTH_SECRET', '');
});
afterEach(() => {
	vi.restoreAllMocks();
	vi.unstubAllEnvs();
	rmSync(root, { recursive: true, force: true });
});

describe('secret', () => {
	it('moves the old secret to AUTH_SECRET_1 and leaves every other line byte-identical', async () => {
		writeApp({ '.env': DOTENV, 'src/auth.ts': AUTH_TS });
		expect(await secret({ cwd: root })).toBe(0);
		const text = readEnv();
		const env = parse(text);
		expect(env.AUTH_SECRET).toMatch(/^[\w-]{43}$/);
		expect(env.AUTH_SECRET).not.toBe(OLD);
		expect(env.AUTH_SECRET_1).toBe(OLD);
		const before = DOTENV.split('\n');
		const after = text.split('\n');
		expect(after.slice(0, before.length)).toEqual(before.map((line) => (line.startsWith('AUTH_SECRET=') ? `AUTH_SECRET=${env.AUTH_SECRET}` : line)));
		expect(after.slice(before.length - 1)).toEqual([
			'',
			'# The previous AUTH_SECRET after a rotation (create-auth secret): still opens existing sessions, never seals new ones.',
			`AUTH_SECRET_1=${OLD}`,
			''
		]);
		expect(readdirSync(root).filter((name) => name.endsWith('.tmp'))).toEqual([]);
	});

	it('never prints a secret value, and says what to do in production', async () => {
		writeApp({ '.env': DOTENV, 'src/auth.ts': AUTH_TS });
		await secret({ cwd: root });
		const printed = stdout.join('');
		expect(printed).not.toContain(OLD);
		expect(printed).not.toContain(parse(readEnv()).AUTH_SECRET);
		// The note box wraps its lines: compare words.
		const words = printed.replace(/[│\s]+/g, ' ');
		expect(words).toContain('set AUTH_SECRET and AUTH_SECRET_1 in the server\'s environment');
		expect(words).toContain('remove AUTH_SECRET_1 everywhere');
	});

	it('keeps a CRLF file CRLF, replacing an existing AUTH_SECRET_1 in place and saying the older one was dropped', async () => {
		const crlf = `# app\r\nAUTH_SECRET=${OLD}\r\nAUTH_SECRET_1=${OLDER}\r\nOTHER=1\r\n`;
		writeApp({ '.env': crlf, 'src/auth.ts': AUTH_TS });
		await secret({ cwd: root });
		const text = readEnv();
		const env = parse(text);
		expect(text).toBe(`# app\r\nAUTH_SECRET=${env.AUTH_SECRET}\r\nAUTH_SECRET_1=${OLD}\r\nOTHER=1\r\n`);
		expect(stdout.join('')).toContain('older AUTH_SECRET_1');
		expect(stdout.join('')).not.toContain(OLDER);
	});

	it('with two-factor authentication, says that dropping the older AUTH_SECRET_1 leaves the two-factor keys sealed with it unopened', async () => {
		const manifest = (twoFactor: boolean) => JSON.stringify({ version: '0.2.0', files: {}, answers: { providers: ['credentials'], ...(twoFactor ? { twoFactor } : {}) } });
		writeApp({ '.env': `AUTH_SECRET=${OLD}\nAUTH_SECRET_1=${OLDER}\n`, 'src/auth.ts': AUTH_TS, '.create-auth/manifest.json': manifest(true) });
		await secret({ cwd: root });
		expect(stdout.join('')).toContain('Two-factor keys still sealed with it no longer open');
		stdout.length = 0;
		writeApp({ '.env': `AUTH_SECRET=${OLD}\nAUTH_SECRET_1=${OLDER}\n`, '.create-auth/manifest.json': manifest(false) });
		await secret({ cwd: root });
		expect(stdout.join('')).toContain('older AUTH_SECRET_1');
		expect(stdout.join('')).not.toContain('Two-factor');
	});

	it('creates a missing .env with AUTH_SECRET only', async () => {
		writeApp({ 'src/auth.ts': AUTH_TS });
		await secret({ cwd: root });
		const text = readEnv();
		expect(Object.keys(parse(text))).toEqual(['AUTH_SECRET']);
		expect(parse(text).AUTH_SECRET).toHaveLength(43);
		expect(text).toBe(`# Encrypts session cookies; at least 32 random characters. Keep it secret.\nAUTH_SECRET=${parse(text).AUTH_SECRET}\n`);
		expect(statSync(path.join(root, '.env')).mode & 0o777).toBe(0o600);
	});

	it("keeps the file's permission bits", async () => {
		writeApp({ '.env': DOTENV, 'src/auth.ts': AUTH_TS });
		chmodSync(path.join(root, '.env'), 0o640);
		await secret({ cwd: root });
		expect(statSync(path.join(root, '.env')).mode & 0o777).toBe(0o640);
	});

	it('refuses with E_ROTATION_UNSUPPORTED when src/auth.ts ignores AUTH_SECRET_1, leaving .env as it was', async () => {
		writeApp({ '.env': DOTENV, 'src/auth.ts': OLD_AUTH_TS });
		const error = await secret({ cwd: root }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(CliError);
		expect((error as CliError).code).toBe('E_ROTATION_UNSUPPORTED');
		expect((error as CliError).hint).toContain('regenerate');
		expect(readEnv()).toBe(DOTENV);
	});

	it('rotates anyway with force, warning that sessions end', async () => {
		writeApp({ '.env': DOTENV, 'src/auth.js': OLD_AUTH_TS });
		expect(await secret({ cwd: root, force: true })).toBe(0);
		expect(parse(readEnv()).AUTH_SECRET_1).toBe(OLD);
		expect(stdout.join('')).toContain('src/auth.js does not read AUTH_SECRET_1');
	});

	it('refuses outside a SvelteKit app', async () => {
		writeFileSync(path.join(root, 'package.json'), '{}');
		await expect(secret({ cwd: root })).rejects.toMatchObject({ code: 'E_NOT_SVELTEKIT' });
	});
});

describe('rotation, proven with the runtime', () => {
	/** The runtime's config as the generated src/auth.ts builds it from `.env`. */
	const secretsFrom = (text: string) => {
		const env = parse(text);
		return resolveConfig({ providers: [], secret: [env.AUTH_SECRET, env.AUTH_SECRET_1] }).secrets;
	};
	const now = () => Math.floor(Date.now() / 1000);
	const MAX_AGE = 30 * 24 * 60 * 60;

	it('opens a session sealed with the old secret after a rotation, seals new ones with the new secret only, and drops it at the next rotation', async () => {
		writeApp({ '.env': DOTENV, 'src/auth.ts': AUTH_TS });
		const [oldSecret] = secretsFrom(DOTENV);
		const oldSession = await encodeToken({ sub: 'alice' }, oldSecret!, MAX_AGE, now());

		await secret({ cwd: root });
		const secrets = secretsFrom(readEnv());
		expect(secrets).toHaveLength(2);
		expect(await decodeToken(oldSession, secrets)).toMatchObject({ sub: 'alice' });
		const newSession = await encodeToken({ sub: 'bob' }, secrets[0]!, MAX_AGE, now());
		expect(await decodeToken(newSession, [oldSecret!])).toBeNull();
		expect(await decodeToken(newSession, secrets)).toMatchObject({ sub: 'bob' });

		await secret({ cwd: root });
		const next = secretsFrom(readEnv());
		expect(await decodeToken(oldSession, next)).toBeNull();
		expect(await decodeToken(newSession, next)).toMatchObject({ sub: 'bob' });
	});

	it('keeps the sealing secret when AUTH_SECRET was empty and AUTH_SECRET_1 sealed the sessions', async () => {
		const text = `AUTH_SECRET=\nAUTH_SECRET_1=${OLDER}\n`;
		writeApp({ '.env': text, 'src/auth.ts': AUTH_TS });
		const session = await encodeToken({ sub: 'carol' }, secretsFrom(text)[0]!, MAX_AGE, now());
		await secret({ cwd: root });
		expect(await decodeToken(session, secretsFrom(readEnv()))).toMatchObject({ sub: 'carol' });
		expect(stdout.join('')).not.toContain('older AUTH_SECRET_1');
	});
});

describe('rotateSecret', () => {
	const fresh = 'n'.repeat(43);

	it.each([
		['no .env', undefined, { kept: false, dropped: false }],
		['a .env without AUTH_SECRET', 'OTHER=1\n', { kept: false, dropped: false }],
		['AUTH_SECRET only', `AUTH_SECRET=${OLD}\n`, { kept: true, dropped: false }],
		['both', `AUTH_SECRET=${OLD}\nAUTH_SECRET_1=${OLDER}\n`, { kept: true, dropped: true }],
		['an empty AUTH_SECRET and an AUTH_SECRET_1', `AUTH_SECRET=\nAUTH_SECRET_1=${OLDER}\n`, { kept: true, dropped: false }]
	])('with %s', (_, source, flags) => {
		expect(rotateSecret(source, fresh)).toMatchObject(flags);
	});

	it("moves a user's quoted secret with spaces verbatim", () => {
		const rotation = rotateSecret('AUTH_SECRET="an old secret with spaces and a # sign"\n', fresh);
		expect(parse(rotation.content)).toEqual({ AUTH_SECRET: fresh, AUTH_SECRET_1: 'an old secret with spaces and a # sign' });
	});
});
