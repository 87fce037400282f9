import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type Provider } from 'oidc-provider';
import { errorPage, loginPage } from './pages.js';

/** Interaction URLs are `/interaction/<uid>`; everything else is oidc-provider's. */
export const INTERACTION_PATH = '/interaction/';

/** Largest login form body read, in bytes: two short fields. */
const MAX_BODY = 16 * 1024;

/**
 * The test user's claims (OIDC Core §5.1), released by scope: `email` gives `email` and
 * `email_verified`; `profile` gives the names and `picture`.
 */
export interface DevIdpUser {
	sub: string;
	email: string;
	email_verified?: boolean;
	name?: string;
	given_name?: string;
	family_name?: string;
	preferred_username?: string;
	picture?: string;
}

/** The one account the dev IdP signs in. */
export interface TestAccount {
	user: DevIdpUser;
	password: string;
}

/**
 * Serves an interaction URL: GET shows the sign-in page, POST checks the email and password.
 *
 * Consent is never asked. A right password finishes both prompts at once, `login` and
 * `consent`, so even a request with `prompt=consent` goes straight back to the client; which
 * scopes are granted is decided by the provider's `loadExistingGrant` (everything requested).
 * A consent-only interaction (a signed-in session plus `prompt=consent`) is finished on GET
 * without showing anything.
 *
 * @throws anything but an oidc-provider error (those become an error page: an unknown or
 *   expired interaction, a body over 16 KiB), for the server to report as a bug
 */
export async function handleInteraction(
	provider: Provider,
	account: TestAccount,
	req: IncomingMessage,
	res: ServerResponse
): Promise<void> {
	try {
		const details = await provider.interactionDetails(req, res);
		if (details.prompt.name === 'consent') {
			await provider.interactionFinished(req, res, { consent: {} });
			return;
		}
		const content = {
			action: `${INTERACTION_PATH}${details.uid}`,
			clientId: String(details.params.client_id),
			tenantId: typeof details.params.tenantId === 'string' ? details.params.tenantId : undefined
		};
		if (req.method === 'POST') {
			const form = await readForm(req);
			const email = form.get('email') ?? '';
			const password = form.get('password') ?? '';
			if (email.trim().toLowerCase() === account.user.email.toLowerCase() && password === account.password) {
				await provider.interactionFinished(req, res, { login: { accountId: account.user.sub }, consent: {} });
				return;
			}
			send(res, 400, loginPage({ ...content, email, password: '', error: 'Wrong email or password.' }));
			return;
		}
		send(res, 200, loginPage({ ...content, email: account.user.email, password: account.password }));
	} catch (error) {
		if (!(error instanceof errors.OIDCProviderError)) throw error;
		send(res, error.statusCode, errorPage(error.error, error.error_description));
	}
}

/** Reads an `application/x-www-form-urlencoded` body. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
	req.setEncoding('utf8');
	let body = '';
	for await (const chunk of req) {
		body += chunk;
		if (body.length > MAX_BODY) throw new errors.InvalidRequest('the form is too large');
	}
	return new URLSearchParams(body);
}

/**
 * Sends an HTML page that is never cached and loads nothing. No CSP `form-action`: browsers
 * apply it to the redirects after the login POST too, and those end at the client.
 */
function send(res: ServerResponse, status: number, html: string): void {
	res.writeHead(status, {
		'content-type': 'text/html; charset=utf-8',
		'cache-control': 'no-store',
		'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'"
	});
	res.end(html);
}
