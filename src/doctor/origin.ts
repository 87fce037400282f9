import { resolveAnswers, type Answers } from '../answers.js';
import { deployTarget, lookupEnv, type Check, type EnvSources } from './check.js';

/** Where `vite dev` answers by default: the origin of callback URLs when AUTH_URL is unset. */
export const DEV_ORIGIN = 'http://localhost:5173';

/** The runtime's default `basePath`, which the generated `src/auth.ts` keeps. */
const BASE_PATH = '/auth';

/** AUTH_URL's origin, or undefined when it is unset or not an absolute http(s) URL. */
function authUrlOrigin(value: string | undefined): string | undefined {
	if (!value) return undefined;
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

/**
 * `auth-url` (error: set but not an absolute http(s) URL; the runtime throws InvalidUrl on a
 * relative one); for apps whose providers build links on the trusted origin (their descriptors'
 * `trustedOrigin`: OAuth redirect URIs, emailed sign-in, password-reset and confirmation links,
 * the passkeys' relying party) `trusted-origin`, and one `callback-url:<provider id>` per OAuth
 * provider.
 *
 * `trusted-origin` warns when neither AUTH_URL nor AUTH_TRUST_HOST=true is set on a
 * self-hosted app (adapter-node, adapter-auto): outside the dev server and loopback hosts
 * (`vite preview` and `node build` on localhost work) the runtime has no origin it may build
 * those on, and stops them with UntrustedHost. On a platform adapter the variable belongs in
 * the platform's settings, which doctor cannot see: the reminder is an `ok`. Any AUTH_TRUST_HOST other than `true` is a warn:
 * the generated `src/auth.ts` compares it with `'true'` exactly.
 *
 * `callback-url:<id>` is always `ok`; its message carries the URL to register at the provider:
 * `<origin><base>/auth/callback/<id>`, on AUTH_URL's origin, else the dev server's, with the
 * app's `paths.base` (`base`) when its config writes it; when only the build knows it (`null`:
 * read from the environment), `<paths.base>` stands in its place and the hint says so.
 */
export function originChecks(input: { answers: Answers; env: EnvSources; dependencies: Record<string, string>; base?: string | null }): Check[] {
	const url = lookupEnv(input.env, 'AUTH_URL');
	const origin = authUrlOrigin(url?.value);
	const checks: Check[] = [];
	if (url && !origin) {
		checks.push({
			id: 'auth-url',
			status: 'error',
			message: `AUTH_URL (from ${url.source}) is ${JSON.stringify(url.value)}, not an absolute http(s) URL: the auth runtime refuses it (InvalidUrl).`,
			hint: 'Set it to the public URL of the app, such as https://app.example.com, or remove it.'
		});
	} else {
		checks.push({
			id: 'auth-url',
			status: 'ok',
			message: origin ? `AUTH_URL is set (from ${url!.source}): redirect URLs use ${origin}.` : "AUTH_URL is not set: redirect URLs use the request's origin."
		});
	}

	const { providers } = resolveAnswers(input.answers);
	const oauth = providers.filter((provider) => provider.trustedOrigin?.callback);
	// What needs a trusted origin, and what stops without one: redirects first, then links.
	const uses = [...new Map(providers.flatMap(({ trustedOrigin }) => (trustedOrigin ? [[trustedOrigin.links, trustedOrigin] as const] : []))).values()].sort(
		(a, b) => Number(!a.callback) - Number(!b.callback)
	);
	if (uses.length === 0) return checks;
	const links = uses.map((use) => use.links).join(' and ');
	const flows = uses.map((use) => use.flow).join(' and ');
	// One flow stops, or several stop.
	const s = uses.length === 1 ? 's' : '';

	const trustHost = lookupEnv(input.env, 'AUTH_TRUST_HOST');
	const target = deployTarget(input.dependencies);
	const fix =
		"Set AUTH_URL to the app's public URL (https://app.example.com), or AUTH_TRUST_HOST=true behind a proxy that sets the Host header.";
	if (origin) {
		checks.push({ id: 'trusted-origin', status: 'ok', message: `${links} are built on AUTH_URL's origin, ${origin}.` });
	} else if (trustHost?.value === 'true') {
		checks.push({ id: 'trusted-origin', status: 'ok', message: `AUTH_TRUST_HOST=true (from ${trustHost.source}): ${links} are built on the request's host.` });
	} else if (trustHost) {
		checks.push({
			id: 'trusted-origin',
			status: 'warn',
			message: `AUTH_TRUST_HOST is ${JSON.stringify(trustHost.value)} (from ${trustHost.source}): only the exact value true trusts the host, so ${flows} outside the dev server and localhost stop${s} with UntrustedHost.`,
			hint: fix
		});
	} else if (target.kind === 'platform') {
		checks.push({
			id: 'trusted-origin',
			status: 'ok',
			message: `Neither AUTH_URL nor AUTH_TRUST_HOST is set here: set AUTH_URL to your deployment's URL in the settings of your platform (${target.adapter}), or ${flows} stop${s} with UntrustedHost there.`
		});
	} else {
		checks.push({
			id: 'trusted-origin',
			status: 'warn',
			message: `Neither AUTH_URL nor AUTH_TRUST_HOST is set: ${flows} work${s} on the dev server and on localhost (vite preview, a local node build) only; on any other host ${uses.length === 1 ? 'it stops' : 'they stop'} with UntrustedHost (no trusted origin for the ${links}).`,
			hint: fix
		});
	}

	const base = input.base === null ? '<paths.base>' : (input.base ?? '');
	for (const scaffold of oauth) {
		const path = `${base}${BASE_PATH}/callback/${scaffold.id}`;
		const hints = [
			...(input.base === null ? ["Put your app's paths.base where <paths.base> stands: svelte.config.js or vite.config computes it when the app builds."] : []),
			...(origin ? [] : [`In production, register <your public origin>${path} too.`])
		];
		checks.push({
			id: `callback-url:${scaffold.id}`,
			status: 'ok',
			message: `${scaffold.label}: register the callback URL ${origin ?? DEV_ORIGIN}${path} at the provider.`,
			...(hints.length > 0 ? { hint: hints.join(' ') } : {})
		});
	}
	return checks;
}
