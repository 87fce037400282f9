import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { signInAtDevIdp } from '../dev-idp/login.js';
import { startDevIdp } from '../dev-idp/server.js';

// These run the real binary (bin/create-auth.js → dist/), as users do; `npm test` builds first.
const BIN = fileURLToPath(new URL('../../bin/create-auth.js', import.meta.url));

const children: ChildProcess[] = [];
afterEach(() => {
	for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `create-auth dev-idp …` (in `cwd`, default ours) and resolves once it has printed its instructions. */
async function startCommand(args: string[], cwd?: string): Promise<{ child: ChildProcess; stdout: () => string }> {
	const child = spawn(process.execPath, [BIN, 'dev-idp', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
	children.push(child);
	let stdout = '';
	child.stdout!.setEncoding('utf8');
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk: string) => {
			stdout += chunk;
			if (stdout.includes('Press Ctrl+C to stop.')) resolve();
		});
		child.once('exit', (code) => reject(new Error(`exited with ${code} before it was ready:\n${stdout}`)));
	});
	return { child, stdout: () => stdout };
}

function envValue(stdout: string, name: string): string | undefined {
	return new RegExp(`^${name}=(.*)$`, 'm').exec(stdout)?.[1];
}

describe('create-auth dev-idp (the binary)', () => {
	it.each(['SIGINT', 'SIGTERM'] as const)(
		'prints the issuer (the real port for --port 0), the test user and the .env lines; stops on %s with exit 0',
		async (signal) => {
			const { child, stdout } = await startCommand(['--port', '0']);
			const issuer = envValue(stdout(), 'AUTH_IDP_ISSUER')!;
			expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
			expect(stdout()).toContain(`Issuer        ${issuer}\n`);
			expect(stdout()).toContain('Sign in as    dev@example.com / password\n');
			expect(envValue(stdout(), 'AUTH_IDP_ID')).toBe('create-auth-dev');
			expect(envValue(stdout(), 'AUTH_IDP_SECRET')).toBe('create-auth-dev-secret');
			expect(envValue(stdout(), 'AUTH_IDP_TENANT_ID')).toBe('dev');

			const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
			expect(((await discovery.json()) as { issuer: string }).issuer).toBe(issuer);

			child.kill(signal);
			const [code] = await once(child, 'exit');
			expect(code).toBe(0);
			expect(stdout()).toMatch(/Dev IdP stopped\.\n$/);
		}
	);

	it('registers the client given by --client-id, --client-secret and --redirect-uri', async () => {
		const { child, stdout } = await startCommand([
			'--port',
			'0',
			'--client-id',
			'my-app',
			'--client-secret',
			'my-secret',
			'--redirect-uri',
			'http://localhost:3000/cb',
			'http://localhost:3001/cb'
		]);
		expect(envValue(stdout(), 'AUTH_IDP_ID')).toBe('my-app');
		expect(envValue(stdout(), 'AUTH_IDP_SECRET')).toBe('my-secret');
		const authorize = new URL(`${envValue(stdout(), 'AUTH_IDP_ISSUER')}/oauth2/authorize`);
		authorize.search = new URLSearchParams({
			client_id: 'my-app',
			redirect_uri: 'http://localhost:3001/cb',
			response_type: 'code',
			scope: 'openid'
		}).toString();
		const result = await signInAtDevIdp(authorize.href);
		expect(result.url.searchParams.get('code')).toEqual(expect.any(String));
		child.kill('SIGINT');
		expect((await once(child, 'exit'))[0]).toBe(0);
	});

	it("registers the callbacks under the paths.base of the app it runs in", async () => {
		const app = await mkdtemp(path.join(tmpdir(), 'create-auth-dev-idp-'));
		try {
			await writeFile(path.join(app, 'svelte.config.js'), "export default { kit: { paths: { base: '/base' } } };\n");
			const { child, stdout } = await startCommand(['--port', '0'], app);
			expect(stdout()).toContain(
				'Redirect URIs http://localhost:5173/base/auth/callback/idp http://127.0.0.1:5173/base/auth/callback/idp http://localhost:4173/base/auth/callback/idp http://127.0.0.1:4173/base/auth/callback/idp\n'
			);
			const authorize = new URL(`${envValue(stdout(), 'AUTH_IDP_ISSUER')}/oauth2/authorize`);
			authorize.search = new URLSearchParams({
				client_id: 'create-auth-dev',
				redirect_uri: 'http://localhost:5173/base/auth/callback/idp',
				response_type: 'code',
				scope: 'openid'
			}).toString();
			const result = await signInAtDevIdp(authorize.href);
			expect(`${result.url.origin}${result.url.pathname}`).toBe('http://localhost:5173/base/auth/callback/idp');
			expect(result.url.searchParams.get('code')).toEqual(expect.any(String));
			child.kill('SIGINT');
			expect((await once(child, 'exit'))[0]).toBe(0);
		} finally {
			await rm(app, { recursive: true, force: true });
		}
	});

	it('fails with E_PORT_IN_USE and a hint, no stack trace, when the port is taken', async () => {
		const idp = await startDevIdp({ port: 0 });
		try {
			const result = await promisify(execFile)(process.execPath, [BIN, 'dev-idp', '--port', String(idp.port)]).catch(
				(error: { code: number; stderr: string }) => error
			);
			expect(result).toMatchObject({ code: 1 });
			const { stderr } = result as { stderr: string };
			expect(stderr).toContain(`create-auth: Port ${idp.port} on 127.0.0.1 is already in use. [E_PORT_IN_USE]\n`);
			expect(stderr).toContain('--port <port> (0 picks a free one)');
			expect(stderr).not.toMatch(/\n\s+at /);
		} finally {
			await idp.stop();
		}
	});

	it.each([
		['--port', 'abc'],
		['--port', '65536'],
		['--redirect-uri', 'not a url'],
		['--redirect-uri', 'http://localhost:3000/cb#fragment']
	])('refuses %s %s with exit 1 before starting', async (flag, value) => {
		const result = await promisify(execFile)(process.execPath, [BIN, 'dev-idp', flag, value]).catch(
			(error: { code: number; stderr: string }) => error
		);
		expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining(`option '${flag}`) });
	});
});
