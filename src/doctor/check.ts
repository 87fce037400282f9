import { hostOf } from '../hosts.js';

/** `ok`: nothing to do; `warn`: works, but something will fail or surprise; `error`: broken. */
export type CheckStatus = 'ok' | 'warn' | 'error';

/**
 * One finding of `create-auth doctor`. `id` is stable (scripts may branch on it): a kebab-case
 * family (`auth-secret`), or `family:subject` for a finding about one subject
 * (`callback-url:github`, `env-missing:AUTH_GITHUB_ID`, `pending:1`); a family whose subjects
 * are all fine reports one `ok` under its bare id.
 */
export interface Check {
	id: string;
	status: CheckStatus;
	/** One sentence for a person; never a secret's value. */
	message: string;
	/** The next step, when there is one. */
	hint?: string;
}

/**
 * Where variables come from, as the dev server sees them: the process's environment first,
 * then `.env.local`, then `.env` (Vite's order). Each holds what it defines, empty values too.
 */
export interface EnvSources {
	process: Record<string, string | undefined>;
	envLocal: Record<string, string>;
	env: Record<string, string>;
}

/** Where a variable's effective value was found. */
export type EnvSource = 'environment' | '.env.local' | '.env';

/**
 * The value the dev server sees for `key`: the first non-empty one in Vite's order.
 *
 * @returns undefined when no source has a non-empty value
 */
export function lookupEnv(env: EnvSources, key: string): { value: string; source: EnvSource } | undefined {
	const candidates: Array<[string | undefined, EnvSource]> = [
		[env.process[key], 'environment'],
		[env.envLocal[key], '.env.local'],
		[env.env[key], '.env']
	];
	for (const [value, source] of candidates) if (value) return { value, source };
	return undefined;
}

/** Test and caller helper: sources with nothing set, overridden by `partial`. */
export function envSources(partial: Partial<EnvSources> = {}): EnvSources {
	return { process: {}, envLocal: {}, env: {}, ...partial };
}

/**
 * Where the app runs outside the dev server, from its SvelteKit adapter ({@link hostOf}):
 * `platform` on a host whose settings hold the environment (Vercel, Netlify, Cloudflare);
 * `self-hosted` with adapter-node (`node build`), adapter-auto (whose platform is unknown until
 * deploy time: at least `vite preview` runs on this machine) or no adapter it knows.
 */
export function deployTarget(dependencies: Record<string, string>): { kind: 'self-hosted' | 'platform'; adapter?: string } {
	const host = hostOf(dependencies);
	return { kind: host?.platformEnv ? 'platform' : 'self-hosted', ...(host ? { adapter: host.adapter } : {}) };
}
