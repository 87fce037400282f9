// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Client-side sign-in and sign-out: a hidden form POSTed to the sign-in / sign-out page's
 * default form action. A real navigation, so the server's 303 (to the app or to a provider)
 * is followed by the browser and nothing here needs to know about it.
 */

/** Fields of the client `signIn`: where to go afterwards, the page to post to, credentials. */
export type SignInOptions = { redirectTo?: string; signInPage?: string } & Record<string, string>;

/** Options of the client `signOut`. */
export interface SignOutOptions {
	redirectTo?: string;
	signOutPage?: string;
}

/**
 * Starts sign-in with a provider by POSTing `providerId` and `options` (e.g. the credential
 * fields `email`, `password`) to `signInPage` (default `/signin`). Navigates away.
 * @see create-auth docs/api.md#client
 */
export function signIn(providerId: string, options: SignInOptions = {}): void {
	const { signInPage = '/signin', ...fields } = options;
	post(signInPage, { ...fields, providerId });
}

/**
 * Signs out by POSTing to `signOutPage` (default `/signout`), then follows the server's
 * redirect to `redirectTo` (validated on the server; default `/`). Navigates away.
 */
export function signOut(options: SignOutOptions = {}): void {
	const { signOutPage = '/signout', ...fields } = options;
	post(signOutPage, fields);
}

function post(action: string, fields: Record<string, string | undefined>): void {
	const form = document.createElement('form');
	form.method = 'POST';
	form.action = action;
	for (const [name, value] of Object.entries(fields)) {
		if (value === undefined) continue;
		const input = document.createElement('input');
		input.type = 'hidden';
		input.name = name;
		input.value = value;
		form.append(input);
	}
	document.body.append(form);
	form.submit();
}
