import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A package version the stand-in serves: its tarball as `npm pack` made it. */
export interface PublishedVersion {
	name: string;
	version: string;
	tarball: string;
}

/**
 * An npm registry stand-in on 127.0.0.1: the packument (`GET /<name>`, the abbreviated and the
 * full form alike) and the tarballs of the versions given, nothing else (404). Point npm at it
 * with `npm_config_registry`.
 * @returns its URL and a `close` that resolves once the server has stopped
 */
export async function startRegistry(published: PublishedVersion[]): Promise<{ url: string; close: () => Promise<void> }> {
	const tarballs = new Map<string, Buffer>();
	for (const { name, version, tarball } of published) tarballs.set(`/${name}/-/${name}-${version}.tgz`, await readFile(tarball));
	const server = createServer((request, response) => {
		const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://registry').pathname);
		const tarball = tarballs.get(pathname);
		if (tarball) {
			response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
			return;
		}
		const versions = published.filter(({ name }) => `/${name}` === pathname);
		if (versions.length === 0) {
			response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
			return;
		}
		const name = versions[0]!.name;
		const entries = versions.map(({ version }) => {
			const data = tarballs.get(`/${name}/-/${name}-${version}.tgz`)!;
			const dist = {
				tarball: `${url}/${name}/-/${name}-${version}.tgz`,
				shasum: createHash('sha1').update(data).digest('hex'),
				integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`
			};
			return [version, { name, version, dist }];
		});
		response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, 'dist-tags': { latest: versions.at(-1)!.version }, versions: Object.fromEntries(entries) }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
