// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * The signed-in user as the app sees it (in `locals.auth()` and `page.data.session`).
 * Every field is optional: callbacks decide what is exposed.
 * @see create-auth docs/api.md#session-and-user
 */
export interface User {
	id?: string;
	name?: string | null;
	email?: string | null;
	image?: string | null;
	/**
	 * In an app with two-factor authentication (`TwoFactor()`): whether the user has it on, as of
	 * this session's sign-in, or its change in this browser (turning it on or off ends the user's
	 * other sessions unless `TwoFactor({ endOtherSessions: false })`). Absent in an app without it.
	 */
	twoFactor?: boolean;
}

/**
 * What `event.locals.auth()` resolves to when someone is signed in.
 * `expires` is an ISO 8601 date-time string (it crosses to the browser as JSON).
 * @see create-auth docs/api.md#session-and-user
 */
export interface Session {
	expires: string;
	user?: User;
}
