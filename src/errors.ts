/**
 * Stable codes of every failure the CLI reports to a user. Tests assert on these, never on
 * message text; they are part of the CLI's interface (scripts may branch on them).
 */
export type CliErrorCode =
	| 'E_NOT_SVELTEKIT'
	| 'E_UNKNOWN_PROVIDER'
	| 'E_UNSUPPORTED_STRATEGY'
	| 'E_UNKNOWN_ADAPTER'
	| 'E_UNSUPPORTED_ADAPTER'
	| 'E_UNKNOWN_RATE_LIMIT_STORE'
	| 'E_INVALID_PROTECT'
	| 'E_CANCELLED'
	| 'E_WRITE_FAILED'
	| 'E_INSTALL_FAILED'
	| 'E_PORT_IN_USE'
	| 'E_NO_MANIFEST'
	| 'E_ALREADY_SET_UP'
	| 'E_PROVIDER_NOT_SET_UP'
	| 'E_UNKNOWN_FEATURE'
	| 'E_FEATURE_NOT_SET_UP'
	| 'E_UNRESOLVED_CONFLICTS'
	| 'E_UNKNOWN_FILE'
	| 'E_ROTATION_UNSUPPORTED'
	| 'E_DATABASE_URL_MISSING'
	| 'E_DRIVER_MISSING'
	| 'E_DRIZZLE_MISSING'
	| 'E_PRISMA_MISSING'
	| 'E_AUTH_FILE_TAKEN'
	| 'E_DATABASE_UNREACHABLE'
	| 'E_MIGRATION_FAILED'
	| 'E_SWITCH_NO_TABLES'
	| 'E_NOTHING_TO_SWITCH'
	| 'E_SWITCH_WHICH'
	| 'E_SWITCH_UNSUPPORTED'
	| 'E_SWITCH_BLOCKED'
	| 'E_WRANGLER_CONFIG';

/**
 * A failure caused by the user's input or project, as opposed to a bug. The top-level handler
 * in `cli.ts` prints `message` (and `hint`) without a stack trace and exits with 1; anything
 * that is not a `CliError` is a bug and is printed in full.
 */
export class CliError extends Error {
	override name = 'CliError';

	/**
	 * @param code stable code, printed next to the message
	 * @param message one sentence saying what is wrong, for a person
	 * @param hint optional next step ("Run it inside a SvelteKit app, or pass --cwd <path>.")
	 */
	constructor(
		readonly code: CliErrorCode,
		message: string,
		readonly hint?: string,
		options?: { cause?: unknown }
	) {
		super(message, options);
	}
}
