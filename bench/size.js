// @ts-check
/**
 * Client JavaScript a page loads, gzipped. SvelteKit names every JS file a page needs up
 * front: in the `Link` response header (`rel="modulepreload"`: the entry, app and route
 * chunks and the chunks they import; other versions put `<link rel="modulepreload" href>` in
 * the HTML instead, SvelteKit 3 with `href` first) and in the inline start script's `import("…")`s. Each
 * file is fetched from the running server and gzipped on its own at level 9 (as adapter-node
 * precompresses them); the page's figure is the sum.
 */
import { gzipSync } from 'node:zlib';

/**
 * @param {string} url  server origin
 * @param {string} page  e.g. `/components/forms`
 * @returns {Promise<{ files: Record<string, number>, gzip: number, forms: string[] }>}  `forms`: the
 *   server-rendered `<form method="POST">`s' actions, which work without JavaScript
 */
export async function pageJs(url, page) {
	const response = await fetch(`${url}${page}`, { signal: AbortSignal.timeout(10_000) });
	const html = await response.text();
	const base = new URL(page, url);
	const found = new Set();
	for (const match of (response.headers.get('link') ?? '').matchAll(/<([^>]+)>;\s*rel="modulepreload"/g)) found.add(match[1]);
	for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
		const href = /href="([^"]+)"/.exec(tag)?.[1];
		if (href && tag.includes('rel="modulepreload"')) found.add(href);
	}
	for (const match of html.matchAll(/import\("([^"]+)"\)/g)) found.add(match[1]);
	if (found.size === 0) throw new Error(`${page}: no JS found in its HTML`);
	/** @type {Record<string, number>} */
	const files = {};
	let gzip = 0;
	for (const href of found) {
		const fileUrl = new URL(/** @type {string} */ (href), base);
		const file = await fetch(fileUrl, { signal: AbortSignal.timeout(10_000) });
		if (!file.ok) throw new Error(`${fileUrl}: ${file.status}`);
		const size = gzipSync(Buffer.from(await file.arrayBuffer()), { level: 9 }).length;
		files[fileUrl.pathname] = size;
		gzip += size;
	}
	const forms = [...html.matchAll(/<form[^>]*method="post"[^>]*>/gi)].map((m) => /action="([^"]*)"/.exec(m[0])?.[1] ?? '');
	return { files, gzip, forms };
}

/**
 * Bytes that the auth components (and, on `/components/client`, the client `signOut()`) add
 * to a page: gzip JS of `/components/forms` and `/components/client` minus `/components/bare`.
 * @param {string} url
 */
export async function componentBytes(url) {
	const bare = await pageJs(url, '/components/bare');
	const forms = await pageJs(url, '/components/forms');
	const client = await pageJs(url, '/components/client');
	return { bare: bare.gzip, forms: forms.gzip - bare.gzip, formsAndClient: client.gzip - bare.gzip, pages: { bare, forms, client } };
}
