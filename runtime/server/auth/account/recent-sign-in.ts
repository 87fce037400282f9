// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Re-authentication before sensitive changes (OWASP ASVS 5.0 7.5.1): the account page's actions
 * that end sessions or change how the user signs in run only within `session.freshAge` seconds
 * of a sign-in. Otherwise they answer with where to sign in again, which brings the user back to
 * the page with the action to resume.
 * @see create-auth docs/api.md#re-authentication
 */
import { fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import type { ResolvedConfig } from '../config.js';
import { appBase } from '../http/app-paths.js';
import type { CurrentSession } from '../session/session.js';

/**
 * An account action refused: `action` is its name (which of the page's forms shows the message),
 * `error` a stable code, `message` safe to show; `reauthenticate` the sign-in page's URL when the
 * sign-in is not recent.
 */
export type AccountFailure = ActionFailure<{ action: string; error: string; message: string; reauthenticate?: string }>;

/**
 * Whether `current` signed in within `config.freshAge` seconds of now. A session whose sign-in
 * time is unknown (issued before the upgrade, continued from another library) is not recent.
 */
export function signedInRecently(current: CurrentSession | null, config: ResolvedConfig): boolean {
	const authTime = current?.authTime;
	return authTime !== undefined && Date.now() / 1000 - authTime <= config.freshAge;
}

/**
 * The sign-in page's URL (under SvelteKit's `paths.base`) that brings the user back to the account
 * page with `?resume=<action>` (and the action's `params`), for the page to offer the action again.
 */
export function reauthenticateUrl(event: RequestEvent, config: ResolvedConfig, resume?: { action: string; params?: Record<string, string> }): string {
	const base = appBase(event.url, config);
	const back = new URLSearchParams(resume ? { resume: resume.action, ...resume.params } : {});
	const callbackUrl = `${base}${config.pages.account}${resume ? `?${back}` : ''}`;
	return `${base}${config.pages.signIn}?${new URLSearchParams({ callbackUrl })}`;
}

/**
 * The refusal of an action that needs a recent sign-in: 401 `ReauthenticationRequired`, with the
 * sign-in page's URL that resumes it ({@link reauthenticateUrl}).
 */
export function reauthenticationRequired(event: RequestEvent, config: ResolvedConfig, resume: { action: string; params?: Record<string, string> }): AccountFailure {
	return fail(401, {
		action: resume.action,
		error: 'ReauthenticationRequired',
		message: `For your security, sign in again to continue: your last sign-in was more than ${duration(config.freshAge)} ago.`,
		reauthenticate: reauthenticateUrl(event, config, resume)
	});
}

/** `seconds` as a person reads it: "10 minutes", "1 minute", "45 seconds". */
function duration(seconds: number): string {
	const [count, unit] = seconds >= 120 ? [Math.round(seconds / 60), 'minute'] : [seconds, 'second'];
	return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
