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

/** SvelteKit adapters whose platform holds the environment (set in its settings, not in `.env`). */
const PLATFORM_ADAPTERS = ['@sveltejs/adapter-vercel', '@sveltejs/adapter-netlify', '@sveltejs/adapter-cloudflare', '@sveltejs/adapter-cloudflare-workers'];

/**
 * Where the app runs outside the dev server, from its SvelteKit adapter: `self-hosted` with
 * adapter-node (`node build`), adapter-auto (whose platform is unknown until deploy time: at
 * least `vite preview` runs on this machine) or no adapter; `platform` when only platform
 * adapters are listed, whose environment lives in the platform's settings.
 */
export function deployTarget(dependencies: Record<string, string>): { kind: 'self-hosted' | 'platform'; adapter?: string } {
	if ('@sveltejs/adapter-node' in dependencies) return { kind: 'self-hosted', adapter: '@sveltejs/adapter-node' };
	if ('@sveltejs/adapter-auto' in dependencies) return { kind: 'self-hosted', adapter: '@sveltejs/adapter-auto' };
	const platform = PLATFORM_ADAPTERS.find((name) => name in dependencies);
	return platform ? { kind: 'platform', adapter: platform } : { kind: 'self-hosted' };
}
