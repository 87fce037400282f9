/**
 * Serverless Node hosts (issue 33): an app that deploys to Vercel, set up by `create-auth --yes`
 * without `--adapter` or `--rate-limit`, gets PostgreSQL and Redis (a SQLite file and memory do not
 * last between function calls there). What adapter-vercel built, and what adapter-netlify builds
 * of a copy, are served as their platforms run them (./harness/function-host.js, the app's `.env`
 * as the platform's settings): a sign-up gets a session, `/account` opens with it, and the session
 * is a row in PostgreSQL.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'dotenv';
import { expect, it } from 'vitest';
import { build, copyApp, shareInstall, start, type RunResult } from './harness/app.js';
import { postForm } from './lockout-flow.js';

/** The SvelteKit adapters the app gets, as `sv add` would write them to devDependencies. */
const ADAPTERS = { '@sveltejs/adapter-vercel': '^6.3.4', '@sveltejs/adapter-netlify': '^6.0.4' };

/** Where each function's sign-ups come from: loopback addresses of their own (10 sign-ups an hour per client). */
const CLIENTS = { vercel: '127.0.0.74', netlify: '127.0.0.75' } as const;

/**
 * Before create-auth runs: the app (copied from kit2-ts, which uses adapter-auto) deploys to
 * Vercel: adapter-vercel in its vite config, adapter-vercel and adapter-netlify in its
 * devDependencies, adapter-auto gone.
 */
export async function useServerlessAdapters(appDir: string): Promise<void> {
	const manifestFile = path.join(appDir, 'package.json');
	const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { devDependencies: Record<string, string> };
	delete manifest.devDependencies['@sveltejs/adapter-auto'];
	Object.assign(manifest.devDependencies, ADAPTERS);
	await writeFile(manifestFile, `${JSON.stringify(manifest, null, '\t')}\n`);
	await useAdapter(appDir, '@sveltejs/adapter-vercel');
}

/** Points the app's vite config at another SvelteKit adapter (its one `import adapter from '…'`). */
async function useAdapter(appDir: string, adapter: string): Promise<void> {
	const file = path.join(appDir, 'vite.config.ts');
	const text = await readFile(file, 'utf8');
	const next = text.replace(/^import adapter from '[^']+';$/m, `import adapter from '${adapter}';`);
	if (next === text && !text.includes(`'${adapter}'`)) throw new Error(`${file} has no "import adapter from '…'" to change`);
	await writeFile(file, next);
}

/** One sign-up through the function at `url`, from `client`, then `/account` with the session it set. */
async function signUpThrough(url: string, client: string): Promise<{ email: string; account: Response }> {
	const email = `fn-${Date.now()}-${client.split('.').at(-1)}@example.com`;
	const signedUp = await postForm(`${url}/signup`, { email, password: 'correct horse battery' }, client);
	expect(signedUp).toMatchObject({ status: 303, location: '/account' });
	const account = await fetch(`${url}/account`, { headers: { cookie: signedUp.cookiePairs.join('; ') }, redirect: 'manual' });
	return { email, account };
}

/**
 * Registers the flows as tests of the enclosing `describe`: `app()` is the app made after
 * {@link useServerlessAdapters} by `create-auth --yes` without `--adapter`/`--rate-limit`, built
 * (with adapter-vercel), its CLI run, and `sessions()` counting the rows of its PostgreSQL
 * sessions table.
 */
export function serverlessFlows(app: () => { appDir: string; cli: RunResult; sessions(): Promise<number>; copies: string[] }): void {
	it('chose PostgreSQL and Redis for an app that deploys to Vercel, and says where their URLs go', async () => {
		const { appDir, cli } = app();
		const manifest = JSON.parse(await readFile(path.join(appDir, '.create-auth/manifest.json'), 'utf8')) as { answers: { adapter: string; rateLimit: string } };
		expect(manifest.answers).toMatchObject({ adapter: 'postgres', rateLimit: 'redis' });
		// The next steps' box wraps the line: read it without the box.
		const steps = cli.stdout.replace(/[│\s]+/g, ' ');
		expect(steps).toContain("On Vercel, set AUTH_SECRET, DATABASE_URL and REDIS_URL in the project's environment settings (a build does not carry .env).");
	});

	it('signs up and in through the function adapter-vercel built and the one adapter-netlify builds, run as their platforms run them', async () => {
		const { appDir, sessions, copies } = app();
		// The platform's settings: what the app's .env holds (the function reads no .env).
		const settings = parse(await readFile(path.join(appDir, '.env'), 'utf8'));
		const netlify = await copyApp(appDir);
		copies.push(netlify);
		await shareInstall(appDir, netlify);
		await useAdapter(netlify, '@sveltejs/adapter-netlify');
		await build(netlify);
		for (const [platform, dir] of [
			['vercel', appDir],
			['netlify', netlify]
		] as const) {
			const server = await start(dir, { mode: platform, env: settings });
			try {
				const before = await sessions();
				const { email, account } = await signUpThrough(server.url, CLIENTS[platform]);
				expect(account.status).toBe(200);
				const page = await account.text();
				expect(page).toMatch(new RegExp(`Signed in as <strong[^>]*>${email.replace(/[.]/g, '\\.')}</strong>`));
				// The platform's client address reached the session's details.
				expect(page).toContain(`From ${CLIENTS[platform]}`);
				expect(await sessions()).toBe(before + 1);
			} finally {
				await server.stop();
			}
		}
	});
}
