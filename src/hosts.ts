import type { AdapterId } from './adapters.js';
import { resolveAnswers, type Answers, type RateLimitStoreId } from './answers.js';

/**
 * Where a SvelteKit app runs, as its SvelteKit adapter says: what create-auth's defaults and
 * `doctor` need to know of the host.
 * @see docs/compatibility.md, "Where it runs"
 */
export interface Host {
	/** The SvelteKit adapter package that builds for it. */
	adapter: string;
	/** Its name for people (`Vercel`). */
	name: string;
	/** The platform holds the environment in its settings: a build does not carry `.env`. */
	platformEnv: boolean;
	/**
	 * Functions started on demand: an instance may serve a few requests and be gone, so a file it
	 * writes (a SQLite database) and its memory (rate-limit counts) do not last between requests.
	 */
	serverless: boolean;
	/** What create-auth chooses there when the flags and prompts do not say: a database server, shared counters. */
	defaults?: { adapter: AdapterId; rateLimit: RateLimitStoreId };
	/** Cloudflare Workers (workerd): the D1 adapter is offered, and the Wrangler config holds the bindings. */
	cloudflare?: true;
}

/**
 * The hosts create-auth knows, by their SvelteKit adapter; the first one an app depends on is
 * its host. adapter-node and adapter-auto come first: an app that lists one of them besides a
 * platform's runs on a Node server, or decides at deploy time.
 */
export const HOSTS: readonly Host[] = [
	{ adapter: '@sveltejs/adapter-node', name: 'a Node server', platformEnv: false, serverless: false },
	{ adapter: '@sveltejs/adapter-auto', name: 'the host adapter-auto finds', platformEnv: false, serverless: false },
	{ adapter: '@sveltejs/adapter-vercel', name: 'Vercel', platformEnv: true, serverless: true, defaults: { adapter: 'postgres', rateLimit: 'redis' } },
	{ adapter: '@sveltejs/adapter-netlify', name: 'Netlify', platformEnv: true, serverless: true, defaults: { adapter: 'postgres', rateLimit: 'redis' } },
	// The counters in D1 too: one database every isolate of the Worker shares, and no other server to run.
	{ adapter: '@sveltejs/adapter-cloudflare', name: 'Cloudflare', platformEnv: true, serverless: true, cloudflare: true, defaults: { adapter: 'd1', rateLimit: 'd1' } },
	{ adapter: '@sveltejs/adapter-cloudflare-workers', name: 'Cloudflare Workers', platformEnv: true, serverless: true, cloudflare: true, defaults: { adapter: 'd1', rateLimit: 'd1' } }
];

/**
 * The app's host: the one whose adapter the app's SvelteKit config imports (`configs`: the texts
 * of its `svelte.config.js` / `vite.config.ts`, where `sv create` writes it), else the first of
 * {@link HOSTS} whose adapter is among `dependencies` (names, or a package.json's `dependencies`
 * and `devDependencies` merged); undefined for none of them (no adapter, or one create-auth does
 * not know, such as adapter-static).
 */
export function hostOf(dependencies: Record<string, string> | readonly string[], configs: readonly string[] = []): Host | undefined {
	const imported = HOSTS.find((host) => configs.some((text) => new RegExp(`from\\s+['"]${host.adapter}['"]`).test(text)));
	if (imported) return imported;
	const names = Array.isArray(dependencies) ? dependencies : Object.keys(dependencies);
	return HOSTS.find((host) => names.includes(host.adapter));
}

/**
 * The last next step of a first run: which variables production needs, and where they go: on a
 * server of the app's own, `AUTH_SECRET` and `AUTH_URL` (outside localhost, links back to the
 * app are built on it: the runtime's `appOriginOf`). On a host whose settings hold the
 * environment, there, with the server-side ones the answers add
 * (the adapter's `DATABASE_URL`, Redis's `REDIS_URL`): a build carries no `.env`, and on a
 * serverless host the app cannot sign anyone in without them. On Cloudflare, as a Worker secret,
 * and the D1 tables made in the deployed database (`d1Binding`: the D1 adapter's binding).
 */
export function productionStep(host: Host | undefined, answers: Answers, d1Binding?: string): string {
	if (!host?.platformEnv) return "In production, set AUTH_SECRET and AUTH_URL (the app's public URL) in the server's environment: a build does not carry .env.";
	if (host.cloudflare) {
		const tables = d1Binding ? `, and before the first deploy create the auth tables in Cloudflare's D1: npx wrangler d1 migrations apply ${d1Binding} --remote` : '';
		return `On ${host.name}, set AUTH_SECRET as a secret: npx wrangler secret put AUTH_SECRET (a build does not carry .env)${tables}.`;
	}
	const { adapter, parts } = resolveAnswers(answers);
	const servers = [...adapter.env, ...parts.flatMap((part) => part.env)].map(({ key }) => key).filter((key) => /_URL$/.test(key) && key !== 'AUTH_URL');
	const keys = ['AUTH_SECRET', ...new Set(servers)];
	const list = keys.length > 1 ? `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)}` : keys[0];
	return `On ${host.name}, set ${list} in the project's environment settings (a build does not carry .env).`;
}
