// @ts-check
/**
 * The dev IdP (src/dev-idp, built to dist/dev-idp by `npm run build`) that `ours-idp` signs in
 * at, run in the bench process: one per app, whose one client is that app.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, repoRoot } from '../e2e/harness/app.js';
import { KITS } from './apps.js';

/**
 * Access tokens outlive any bench run, so that the generated `jwt` callback never refreshes
 * one while the rows are measured: each would re-issue the cookie the load keeps sending (and
 * the second refresh, with a spent refresh token, would fail), which is not the steady state.
 */
const ACCESS_TOKEN_TTL = 6 * 60 * 60;

/**
 * The dev IdP module, loaded from dist/ (run.js builds it first; the types are the source's).
 * @returns {Promise<typeof import('../src/dev-idp/index.js')>}
 */
export async function devIdp() {
	return import(pathToFileURL(path.join(repoRoot, 'dist', 'dev-idp', 'index.js')).href);
}

/**
 * Starts a dev IdP (on a free port) for `app`, and returns the app as it must be served: on a
 * free port chosen now (`app.port`: its rows' server and its profile's use it), with the values
 * its environment needs added. The IdP's one client is the app as it will see itself
 * (`KITS[kit].selfOrigin`: https on Kit 3), so its `redirect_uri` is
 * `<self origin>/auth/callback/idp`, the one the app builds from `AUTH_URL`. The environment
 * gets the `AUTH_IDP_*` keys create-auth leaves empty in `.env`, and `AUTH_URL` (a production
 * server trusts no Host header: without it the app cannot build a redirect URI).
 * @param {import('./apps.js').App} app
 * @returns {Promise<{ app: import('./apps.js').App, idp: import('../src/dev-idp/index.js').DevIdp }>}
 */
export async function withIdp(app) {
	const { startDevIdp } = await devIdp();
	const port = await freePort();
	const selfOrigin = KITS[app.kit].selfOrigin(`http://127.0.0.1:${port}`);
	const client = {
		clientId: 'bench-app',
		clientSecret: randomBytes(24).toString('base64url'),
		redirectUris: [`${selfOrigin}/auth/callback/idp`]
	};
	const idp = await startDevIdp({ port: 0, clients: [client], accessTokenTtl: ACCESS_TOKEN_TTL });
	const env = {
		AUTH_IDP_ISSUER: idp.issuer,
		AUTH_IDP_ID: client.clientId,
		AUTH_IDP_SECRET: client.clientSecret,
		AUTH_IDP_TENANT_ID: 'bench',
		AUTH_URL: selfOrigin
	};
	return { app: { ...app, env: { ...app.env, ...env }, port }, idp };
}
