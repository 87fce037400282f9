// @ts-check
/**
 * A serverless platform's front, on this machine: serves the function a SvelteKit adapter built
 * (`start(appDir, { mode: 'vercel' | 'netlify' })` runs this file as its server) by turning each
 * HTTP request into a Web `Request`, calling the function the way its platform does, and writing
 * the `Response` back. The function module is imported once, as a platform's instance does at a
 * cold start; its environment is this process's (the platform's settings).
 *
 * - `vercel`: a function folder (`.vercel/output/functions/![-]/catchall.func`): the module its
 *   `.vc-config.json` names as `handler` (Build Output API, `launcherType: 'Nodejs'`), whose default
 *   export has `fetch(request)`; the client address travels in `x-forwarded-for`, as Vercel's proxy sets it.
 * - `netlify`: `.netlify/functions-internal/sveltekit-render.mjs`, whose default export is
 *   `(request, context)` (Netlify Functions 2.0); the client address is `context.ip`.
 *
 * Usage: `node function-host.js <vercel|netlify> <function folder|module path>`, with `HOST` and `PORT` set.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const [platform, target] = process.argv.slice(2);
if ((platform !== 'vercel' && platform !== 'netlify') || !target) throw new Error('usage: function-host.js <vercel|netlify> <function folder|module path>');
const entry = platform === 'vercel' ? path.join(target, JSON.parse(await readFile(path.join(target, '.vc-config.json'), 'utf8')).handler) : target;
const { default: fn } = await import(pathToFileURL(entry).href);

/**
 * The function's answer to `request` from `address`.
 * @param {Request} request
 * @param {string} address
 * @returns {Promise<Response>}
 */
function call(request, address) {
	if (platform === 'vercel') {
		request.headers.set('x-forwarded-for', address);
		return fn.fetch(request);
	}
	return fn(request, { ip: address });
}

const server = http.createServer(async (req, res) => {
	try {
		const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
		const headers = new Headers();
		for (const [name, value] of Object.entries(req.headers)) {
			for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
		}
		const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : /** @type {ReadableStream} */ (Readable.toWeb(req));
		// `duplex: 'half'` streams the body (undici requires it; DOM's RequestInit type lacks it).
		const request = new Request(url, /** @type {RequestInit} */ ({ method: req.method, headers, body, duplex: 'half' }));
		const response = await call(request, req.socket.remoteAddress ?? '127.0.0.1');
		const out = /** @type {Record<string, string | string[]>} */ ({});
		response.headers.forEach((value, name) => {
			if (name !== 'set-cookie') out[name] = value;
		});
		const cookies = response.headers.getSetCookie();
		if (cookies.length > 0) out['set-cookie'] = cookies;
		res.writeHead(response.status, out);
		if (response.body) for await (const chunk of /** @type {AsyncIterable<Uint8Array>} */ (/** @type {unknown} */ (response.body))) res.write(chunk);
		res.end();
	} catch (error) {
		console.error(error);
		res.writeHead(500).end('function-host: the function threw');
	}
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => console.log(`function-host: ${platform} on ${process.env.PORT}`));
