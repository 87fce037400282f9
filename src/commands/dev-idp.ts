import { InvalidArgumentError } from 'commander';
import { readBase } from '../base-path.js';
import type { DevIdp, DevIdpClient } from '../dev-idp/index.js';
import { CliError } from '../errors.js';

/** Options of `create-auth dev-idp`, as commander parses them (see {@link parsePort}, {@link parseRedirectUri}). */
export interface DevIdpCommandOptions {
	/** Default 9400; 0 picks a free port. */
	port?: number;
	clientId?: string;
	clientSecret?: string;
	redirectUri?: string[];
}

/**
 * `create-auth dev-idp`: runs a local OpenID provider on 127.0.0.1, prints its issuer, the
 * test user's credentials and the `.env` lines for the app's `idp` provider, and keeps it
 * running until SIGINT (Ctrl+C) or SIGTERM. The flags replace the default client's id, secret
 * or redirect URIs. Run in an app whose config sets `paths.base` to a string, the default
 * redirect URIs carry that base (`http://localhost:5173/base/auth/callback/idp`).
 *
 * @param cwd the folder it runs in: an app's, whose `paths.base` it reads (default: the process's)
 * @returns 0 once stopped by a signal
 * @throws {CliError} `E_PORT_IN_USE` when the port is taken
 */
export async function devIdp(options: DevIdpCommandOptions, cwd = process.cwd()): Promise<number> {
	// Loaded here, not at the top: oidc-provider is large, and on Node 20 it prints a warning as
	// it loads, which no other command should pay for.
	const { DEFAULT_CLIENT, DEFAULT_PORT, defaultRedirectUris, startDevIdp } = await import('../dev-idp/index.js');
	const client = {
		clientId: options.clientId ?? DEFAULT_CLIENT.clientId,
		clientSecret: options.clientSecret ?? DEFAULT_CLIENT.clientSecret,
		// A base only the build knows (null) cannot be guessed: --redirect-uri then.
		redirectUris: options.redirectUri ?? defaultRedirectUris((await readBase(cwd)) ?? '')
	};
	const idp = await startDevIdp({ port: options.port, clients: [client] }).catch((error: unknown) => {
		if ((error as NodeJS.ErrnoException)?.code !== 'EADDRINUSE') throw error;
		throw new CliError(
			'E_PORT_IN_USE',
			`Port ${options.port ?? DEFAULT_PORT} on 127.0.0.1 is already in use.`,
			'Stop whatever uses it (another dev IdP?), or pass --port <port> (0 picks a free one).',
			{ cause: error }
		);
	});
	process.stdout.write(describe(idp, client));
	await untilSignal();
	await idp.stop();
	process.stdout.write('Dev IdP stopped.\n');
	return 0;
}

/** Commander argument parser for `--port`: an integer from 0 to 65535. */
export function parsePort(value: string): number {
	const port = Number(value);
	if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('Expected a port number from 0 to 65535.');
	return port;
}

/** Commander argument parser for `--redirect-uri <uri...>`: collects absolute http(s) URLs without a fragment. */
export function parseRedirectUri(value: string, previous: string[] = []): string[] {
	const url = URL.parse(value);
	if (!url || !['http:', 'https:'].includes(url.protocol) || url.hash) {
		throw new InvalidArgumentError('Expected an absolute http(s) URL without a #fragment.');
	}
	return [...previous, value];
}

/** What to start the app with, in lines that can be pasted as they are. */
function describe(idp: DevIdp, client: DevIdpClient): string {
	return [
		'create-auth dev IdP: local development only',
		`Issuer        ${idp.issuer}`,
		`Sign in as    ${idp.user.email} / ${idp.password}`,
		`Redirect URIs ${client.redirectUris.join(' ')}`,
		'',
		"Add to your app's .env:",
		`AUTH_IDP_ISSUER=${idp.issuer}`,
		`AUTH_IDP_ID=${client.clientId}`,
		`AUTH_IDP_SECRET=${client.clientSecret}`,
		'AUTH_IDP_TENANT_ID=dev',
		'',
		'Press Ctrl+C to stop.',
		''
	].join('\n');
}

/** Resolves at the first SIGINT or SIGTERM; while it waits, those signals do not end the process. */
function untilSignal(): Promise<void> {
	return new Promise((resolve) => {
		const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
		const onSignal = () => {
			for (const signal of signals) process.off(signal, onSignal);
			resolve();
		};
		for (const signal of signals) process.on(signal, onSignal);
	});
}
