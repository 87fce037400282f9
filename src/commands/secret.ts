import { randomBytes } from 'node:crypto';
import * as prompts from '@clack/prompts';
import { parse } from 'dotenv';
import { DEFAULT_ANSWERS } from '../answers.js';
import { applyOperations } from '../apply.js';
import { setEnvValues } from '../edits/env.js';
import { authEnvVars } from '../env-vars.js';
import { CliError } from '../errors.js';
import { loadApp } from './app.js';

/** Options of `create-auth secret`, as commander parses them. */
export interface SecretOptions {
	/** The app's folder; the process's cwd when not given. */
	cwd?: string;
	/** `--force`: rotate even though `src/auth` ignores AUTH_SECRET_1, ending every session. */
	force?: boolean;
}

/**
 * `create-auth secret`: rotates AUTH_SECRET in the app's `.env`. A fresh secret (32 random
 * bytes, base64url: 43 characters) becomes AUTH_SECRET; the previous one moves to
 * AUTH_SECRET_1, where the generated `src/auth.ts` still opens the sessions it sealed but seals
 * no new ones. An older AUTH_SECRET_1 is dropped (said so; with two-factor authentication, also
 * that the TOTP keys still sealed with it no longer open). Every other line of `.env` stays
 * byte-identical; `.env` is replaced atomically, keeping its permissions ({@link applyOperations}). A missing
 * `.env` is created with AUTH_SECRET only. Secret values are never printed.
 *
 * When `src/auth.(ts|js)` does not read AUTH_SECRET_1 (code generated before rotation
 * existed), rotating would sign every user out: the command refuses, unless `force` is given
 * (a leaked secret, where ending every session is the point; there, remove AUTH_SECRET_1
 * afterwards too: whoever holds the old secret can seal sessions with it).
 *
 * @returns the exit code (0)
 * @throws {CliError} `E_NOT_SVELTEKIT` outside a SvelteKit app; `E_ROTATION_UNSUPPORTED`
 *   when `src/auth` ignores AUTH_SECRET_1 and `force` is not set; `E_WRITE_FAILED` when `.env`
 *   cannot be written or changed meanwhile (it is then left as it was)
 */
export async function secret(options: SecretOptions): Promise<number> {
	const { project, manifest } = await loadApp(options.cwd);
	const source = project.files['.env'];
	const fresh = randomBytes(32).toString('base64url');
	const rotation = rotateSecret(source, fresh);

	// Whether sessions sealed with the previous secret still open after the rotation.
	let sessionsKept = rotation.kept;
	if (rotation.kept) {
		const auth = ['src/auth.ts', 'src/auth.js'].flatMap((file) => {
			const text = project.files[file];
			return text === undefined ? [] : [{ path: file, text }];
		})[0];
		if (!auth) {
			prompts.log.warn('No src/auth.ts: make sure your auth config passes secret: [AUTH_SECRET, AUTH_SECRET_1], or existing sessions end.');
		} else if (!/\bAUTH_SECRET_1\b/.test(auth.text)) {
			if (!options.force) {
				throw new CliError(
					'E_ROTATION_UNSUPPORTED',
					`${auth.path} does not read AUTH_SECRET_1: rotating now would sign every user out.`,
					'Run npx create-auth regenerate first (its src/auth.ts passes secret: [AUTH_SECRET, AUTH_SECRET_1]) or add AUTH_SECRET_1 there by hand; or pass --force to rotate anyway and end every session.'
				);
			}
			prompts.log.warn(`${auth.path} does not read AUTH_SECRET_1: every existing session ends with this rotation (--force).`);
			sessionsKept = false;
		}
	}

	const applied = await applyOperations(project.root, [{ path: '.env', strategy: 'patch', content: rotation.content, previous: source }]);
	await applied.commit();

	const created = `a new secret (${fresh.length} characters)`;
	if (source === undefined) prompts.log.success(`Created .env with AUTH_SECRET: ${created}.`);
	else if (!rotation.kept) prompts.log.success(`Wrote AUTH_SECRET to .env: ${created}; there was none, so no session to keep.`);
	else {
		prompts.log.success(
			`Rotated AUTH_SECRET in .env: ${created}. The previous one is now AUTH_SECRET_1, ${sessionsKept ? 'which still opens existing sessions and seals no new ones' : 'for when src/auth reads it'}.`
		);
	}
	if (rotation.dropped) {
		prompts.log.warn('The older AUTH_SECRET_1 (from the rotation before) was dropped: sessions still sealed with it now end.');
		// A TOTP secret is sealed again under the current secret at its next use only (two-factor/factor.ts).
		if (manifest?.answers.twoFactor) {
			prompts.log.warn(
				"Two-factor keys still sealed with it no longer open: users who have not entered a code since the rotation before need one of their recovery codes. If that matters, put the dropped secret back as AUTH_SECRET_2 in src/auth's secret list until they have."
			);
		}
	}
	if (process.env.AUTH_SECRET) {
		prompts.log.warn("AUTH_SECRET is also set in this shell's environment, which wins over .env: unset it, or rotate it there too.");
	}
	const keys = rotation.kept ? 'AUTH_SECRET and AUTH_SECRET_1' : 'AUTH_SECRET';
	prompts.note(
		[
			'Restart the dev server if it is running.',
			`Production does not read .env (node build): set ${keys} in the server's environment, the same on every instance, and restart them.`,
			'If production has a secret of its own, rotate it there the same way: its AUTH_SECRET becomes AUTH_SECRET_1, and a fresh one (openssl rand -base64 33) becomes AUTH_SECRET.',
			...(rotation.kept
				? ['After 30 days (the session maxAge), remove AUTH_SECRET_1 everywhere: by then every session sealed with the old secret has expired or been resealed with the new one.']
				: [])
		].join('\n'),
		'Next steps'
	);
	return 0;
}

/** What {@link rotateSecret} does to a `.env`. */
export interface Rotation {
	/** The new text of `.env`. */
	content: string;
	/** A previous secret moved to AUTH_SECRET_1 (false when `.env` had none). */
	kept: boolean;
	/** An older AUTH_SECRET_1 was replaced, so the sessions only it opened end. */
	dropped: boolean;
}

/**
 * Rotates AUTH_SECRET in a `.env` text. Pure. The previous secret is the one the runtime seals
 * with now: AUTH_SECRET, or AUTH_SECRET_1 when AUTH_SECRET is empty (the runtime skips empty
 * secrets). Keys missing from the file are appended with the comments the plan writes.
 *
 * @param source the text of `.env`, or undefined when there is none
 * @param fresh the new secret (no whitespace, `#` or quotes: base64url)
 * @throws {Error} when the result would not parse back to the intended values (a bug: the
 *   caller then writes nothing)
 */
export function rotateSecret(source: string | undefined, fresh: string): Rotation {
	const before = parse(source ?? '');
	const previous = before.AUTH_SECRET || before.AUTH_SECRET_1 || undefined;
	const entry = (key: string, value: string) => ({ key, value, comment: describe(key) });
	const content = setEnvValues(source, [entry('AUTH_SECRET', fresh), ...(previous ? [entry('AUTH_SECRET_1', previous)] : [])]);

	const expected: Record<string, string> = { ...before, AUTH_SECRET: fresh, ...(previous ? { AUTH_SECRET_1: previous } : {}) };
	const after = parse(content);
	const keys = new Set([...Object.keys(expected), ...Object.keys(after)]);
	if ([...keys].some((key) => after[key] !== expected[key])) throw new Error('rotateSecret: the new .env does not read back as intended');
	return { content, kept: previous !== undefined, dropped: !!before.AUTH_SECRET && !!before.AUTH_SECRET_1 && before.AUTH_SECRET_1 !== previous };
}

/** The one-line comment the plan writes above `key` in `.env`. */
function describe(key: string): string {
	return authEnvVars({ ...DEFAULT_ANSWERS, providers: [] }, '').find((variable) => variable.key === key)!.description;
}
