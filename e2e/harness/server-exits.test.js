// @ts-check
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { start, takeUnexpectedExits } from './app.js';

/** A stand-in for an adapter-node build: answers every request, and exits with code 3 on `/exit`. */
const SERVER = `import http from 'node:http';
http.createServer((request, response) => {
	response.end('ok');
	if (request.url === '/exit') {
		console.error('fatal: the store went away');
		setTimeout(() => process.exit(3), 10);
	}
}).listen(Number(process.env.PORT), process.env.HOST);
`;

describe('takeUnexpectedExits', () => {
	let appDir = '';
	beforeAll(async () => {
		appDir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-auth-server-exits-'));
		await fs.mkdir(path.join(appDir, 'build'));
		await fs.writeFile(path.join(appDir, 'build', 'index.js'), SERVER);
		await fs.writeFile(path.join(appDir, 'package.json'), '{ "type": "module" }');
	});
	afterAll(() => fs.rm(appDir, { recursive: true, force: true }));

	it('names a server that exited on its own after it answered, with its exit and output, once', async () => {
		const server = await start(appDir, { mode: 'node' });
		try {
			await (await fetch(`${server.url}/exit`)).text();
			const exits = await vi.waitFor(() => {
				const taken = takeUnexpectedExits();
				expect(taken).toHaveLength(1);
				return taken;
			});
			expect(exits[0]).toMatchObject({ url: server.url, exit: { code: 3, signal: null } });
			expect(exits[0]?.output()).toContain('fatal: the store went away');
			expect(takeUnexpectedExits()).toEqual([]);
		} finally {
			await server.stop();
		}
	});

	it('does not name a server the test stopped', async () => {
		const server = await start(appDir, { mode: 'node' });
		await server.stop();
		expect(takeUnexpectedExits()).toEqual([]);
	});
});
