import { generateKeyPair } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { JWKS } from 'oidc-provider';
import { handleInteraction, INTERACTION_PATH, type DevIdpUser } from './interaction.js';
import { errorPage } from './pages.js';
import { createProvider, type DevIdpClient, type ProviderSettings } from './provider.js';

/** Options of {@link startDevIdp}; every one has a default. */
export interface DevIdpOptions {
	/** TCP port on 127.0.0.1; 0 picks a free one (read it from {@link DevIdp.port}). Default 9400. */
	port?: number;
	/** Registered clients. Default: one, {@link DEFAULT_CLIENT}. */
	clients?: DevIdpClient[];
	/** Private RSA signing keys (JWK Set); the first signs. Default: one RSA 2048 key made at start. */
	keys?: JWKS;
	/** Access token lifetime, in seconds. Default 3600. */
	accessTokenTtl?: number;
	/** ID token lifetime, in seconds. Default 3600. */
	idTokenTtl?: number;
	/** The one account that can sign in. Default {@link DEFAULT_USER}. */
	user?: DevIdpUser;
	/** That account's password. Default `password`. */
	password?: string;
}

/** A running dev IdP. */
export interface DevIdp {
	/** `http://127.0.0.1:<port>`, no trailing slash; discovery is at `<issuer>/.well-known/openid-configuration`. */
	issuer: string;
	/** The port it listens on (the real one when 0 was asked for). */
	port: number;
	clients: readonly DevIdpClient[];
	user: DevIdpUser;
	password: string;
	/** Closes the server and every open connection; safe to call more than once. */
	stop(): Promise<void>;
}

/** The only interface the dev IdP listens on: it is never reachable from another machine. */
export const HOST = '127.0.0.1';

export const DEFAULT_PORT = 9400;

/**
 * The `idp` provider's callback URLs in `vite dev` (5173) and `vite preview` (4173), on
 * `localhost` and `127.0.0.1`, for an app served under `base` (SvelteKit's `paths.base`, `''`
 * for none): `http://localhost:5173/base/auth/callback/idp`, ….
 */
export function defaultRedirectUris(base = ''): string[] {
	return [5173, 4173].flatMap((port) => ['localhost', '127.0.0.1'].map((host) => `http://${host}:${port}${base}/auth/callback/idp`));
}

/** The client an app without a base path signs in with (see {@link defaultRedirectUris}). */
export const DEFAULT_CLIENT: DevIdpClient = {
	clientId: 'create-auth-dev',
	clientSecret: 'create-auth-dev-secret',
	redirectUris: defaultRedirectUris()
};

export const DEFAULT_USER: DevIdpUser = {
	sub: 'dev-user-1',
	email: 'dev@example.com',
	email_verified: true,
	name: 'Dev User',
	given_name: 'Dev',
	family_name: 'User',
	preferred_username: 'dev'
};

export const DEFAULT_PASSWORD = 'password';

/**
 * Starts a local OpenID provider for development and tests, on 127.0.0.1 only. See
 * `createProvider` (provider.ts) for what it supports and how consent is skipped.
 *
 * @throws the server's `listen` error, e.g. `code: 'EADDRINUSE'` when the port is taken
 * @throws when oidc-provider rejects a client or key
 */
export async function startDevIdp(options: DevIdpOptions = {}): Promise<DevIdp> {
	const settings: ProviderSettings = {
		clients: options.clients ?? [DEFAULT_CLIENT],
		keys: options.keys ?? (await generateSigningKeys()),
		accessTokenTtl: options.accessTokenTtl ?? 3600,
		idTokenTtl: options.idTokenTtl ?? 3600,
		user: options.user ?? DEFAULT_USER,
		password: options.password ?? DEFAULT_PASSWORD
	};
	// The issuer names the port, and port 0 is only known once listening: until the provider
	// exists, requests are answered 503.
	let listener: RequestListener | undefined;
	const server = createServer((req, res) => {
		if (listener) listener(req, res);
		else res.writeHead(503).end();
	});
	server.listen(options.port ?? DEFAULT_PORT, HOST);
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	const issuer = `http://${HOST}:${port}`;
	let stopped: Promise<void> | undefined;
	const stop = () =>
		(stopped ??= new Promise<void>((resolve, reject) => {
			server.close((error) => (error ? reject(error) : resolve()));
			server.closeAllConnections();
		}));

	try {
		const provider = createProvider(issuer, settings);
		provider.on('server_error', (_ctx, error) => reportBug(error));
		const oidc = provider.callback();
		listener = (req, res) => {
			const handled = req.url?.startsWith(INTERACTION_PATH) ? handleInteraction(provider, settings, req, res) : oidc(req, res);
			handled.catch((error: unknown) => {
				reportBug(error);
				if (res.headersSent) res.destroy();
				else res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' }).end(errorPage('server_error', 'see the dev IdP output'));
			});
		};
	} catch (error) {
		await stop();
		throw error;
	}
	return { issuer, port, clients: settings.clients, user: settings.user, password: settings.password, stop };
}

/** One RSA 2048 signing key, as a JWK Set of private keys. */
async function generateSigningKeys(): Promise<JWKS> {
	const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
	return { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig' }] };
}

/** A failure inside the dev IdP: a bug, printed in full so it can be reported. */
function reportBug(error: unknown): void {
	process.stderr.write(`create-auth dev IdP: unexpected error:\n${(error as Error)?.stack ?? String(error)}\n`);
}
