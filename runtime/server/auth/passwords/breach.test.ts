import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../config.js';
import { checkNewPassword } from './policy.js';

const PWNED = 'tangerine piano seventeen';
const CLEAN = 'violet harbour cobbles';
const PADDED = 'copper lantern meadow';
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

/** A stand-in for api.pwnedpasswords.com/range/<prefix>: knows PWNED (seen 42 times), pads with PADDED's suffix at count 0. */
const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
let hang = false;
const standIn: Server = createServer((req, res) => {
	received.push({ url: req.url ?? '', headers: req.headers });
	if (hang) return;
	const prefix = (req.url ?? '').slice('/range/'.length);
	const lines = [PWNED, PADDED].filter((p) => sha1(p).startsWith(prefix)).map((p) => `${sha1(p).slice(5)}:${p === PWNED ? 42 : 0}`);
	res.writeHead(200, { 'content-type': 'text/plain' }).end([...lines, '0018A45C4D1DEF81644B54AB7F969B88D65:3'].join('\r\n'));
});
let url = '';
beforeAll(async () => {
	await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/range/`;
});
afterAll(() => {
	standIn.closeAllConnections();
	return new Promise((resolve) => standIn.close(resolve));
});
const logger = { error: vi.fn() };
beforeEach(() => {
	received.length = 0;
	hang = false;
	logger.error.mockClear();
});
const config = (breachCheck: object | boolean) => resolveConfig({ providers: [], secret: 's'.repeat(32), logger, passwords: { breachCheck } });

describe('passwords.breachCheck: Have I Been Pwned range query (NIST SP 800-63B-4 §3.1.1.2, OWASP ASVS 5.0 V6.2.12)', () => {
	it('is off by default: no request is made', async () => {
		expect(resolveConfig({ providers: [], secret: 's'.repeat(32) }).passwords.breachCheck).toBe(false);
		expect(config(true).passwords.breachCheck).toEqual({ url: 'https://api.pwnedpasswords.com/range/', timeoutMs: 2000 });
		expect(await checkNewPassword(PWNED, config(false))).toMatchObject({ ok: true });
		expect(received).toEqual([]);
	});

	it('attack: refuses a password the service knows as breached, with PasswordBreached and a message to show', async () => {
		expect(await checkNewPassword(PWNED, config({ url }))).toEqual({ ok: false, code: 'PasswordBreached', message: 'This password has appeared in a data breach. Choose another.' });
	});

	it('accepts a password the service does not know, and one that matches only a padding line (count 0)', async () => {
		expect(await checkNewPassword(CLEAN, config({ url }))).toEqual({ ok: true, password: CLEAN });
		expect(await checkNewPassword(PADDED, config({ url }))).toMatchObject({ ok: true });
		expect(logger.error).not.toHaveBeenCalled();
	});

	it('sends only the 5 hex characters of the SHA-1 prefix, asking for padding: never the password nor its full hash', async () => {
		await checkNewPassword(PWNED, config({ url }));
		expect(received).toHaveLength(1);
		const [{ url: path, headers }] = received as [(typeof received)[0]];
		expect(path).toBe(`/range/${sha1(PWNED).slice(0, 5)}`);
		expect(path).toMatch(/^\/range\/[0-9A-F]{5}$/);
		expect(headers['add-padding']).toBe('true');
		const sent = JSON.stringify(received);
		for (const secret of [PWNED, encodeURIComponent(PWNED), sha1(PWNED), sha1(PWNED).slice(5), sha1(PWNED).toLowerCase().slice(5)]) expect(sent).not.toContain(secret);
	});

	it('fails open when the service is down: the password is accepted and one error logged', async () => {
		const down = createServer();
		await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
		const port = (down.address() as AddressInfo).port;
		await new Promise((resolve) => down.close(resolve));
		expect(await checkNewPassword(PWNED, config({ url: `http://127.0.0.1:${port}/range/` }))).toMatchObject({ ok: true });
		expect(logger.error).toHaveBeenCalledTimes(1);
		expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('did not answer') }));
	});

	it('fails open when the service is slower than timeoutMs', async () => {
		hang = true;
		const started = performance.now();
		expect(await checkNewPassword(PWNED, config({ url, timeoutMs: 200 }))).toMatchObject({ ok: true });
		expect(performance.now() - started).toBeLessThan(1500);
		expect(logger.error).toHaveBeenCalledTimes(1);
	});
});
