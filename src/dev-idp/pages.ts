import { escapeHtml } from './html.js';

/** What the sign-in page shows. Every value is escaped. */
export interface LoginPageContent {
	/** Where the form posts: the interaction's own path. */
	action: string;
	/** The client being signed in to (`client_id`). */
	clientId: string;
	/** The `tenantId` authorization parameter, shown when the client sent one. */
	tenantId?: string;
	/** Prefilled values: the test user's, or what was typed before an error. */
	email: string;
	password: string;
	/** Shown above the form, as an alert. */
	error?: string;
}

/**
 * The sign-in page: a plain form, no script, no external assets. The form posts to `action`
 * with `email` and `password`.
 */
export function loginPage(content: LoginPageContent): string {
	const tenant = content.tenantId === undefined ? '' : `, tenant <code>${escapeHtml(content.tenantId)}</code>`;
	return page(
		'Sign in',
		`<p>Signing in to <code>${escapeHtml(content.clientId)}</code>${tenant}.</p>
${content.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(content.error)}</p>\n`}<form method="post" action="${escapeHtml(content.action)}">
<label>Email <input type="email" name="email" value="${escapeHtml(content.email)}" autocomplete="username" required></label>
<label>Password <input type="password" name="password" value="${escapeHtml(content.password)}" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`
	);
}

/** The page for a request the dev IdP refuses, e.g. an unknown `redirect_uri`. */
export function errorPage(error: string, description?: string): string {
	const text = description === undefined ? error : `${error}: ${description}`;
	return page('Error', `<p class="error" role="alert">${escapeHtml(text)}</p>`);
}

/** The frame every page shares: the name and the "local development only" note. */
function page(title: string, body: string): string {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · create-auth dev IdP</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 24rem; margin: 3rem auto; padding: 0 1rem; }
label, input, button { display: block; width: 100%; box-sizing: border-box; }
input, button { font: inherit; padding: 0.4rem; margin: 0.25rem 0 0.75rem; }
.note { color: #8a5a00; }
.error { color: #b00020; }
</style>
</head>
<body>
<main>
<h1>create-auth dev IdP</h1>
<p class="note">Local development only</p>
${body}
</main>
</body>
</html>
`;
}
