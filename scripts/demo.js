#!/usr/bin/env node
// @ts-check
/**
 * `npm run demo [-- <extra create-auth flags>]`: a fresh copy of the kit3-ts fixture (SvelteKit
 * 3) when this Node is 22.17 or later, else of kit2-ts (SvelteKit 2), in `.demo/app` (any
 * earlier demo app is replaced), `create-auth --yes --providers credentials,idp` on it, the dev
 * IdP (`create-auth dev-idp`) on http://127.0.0.1:9400 with its values in the app's `.env`,
 * then `vite dev` on http://127.0.0.1:5173 in the foreground. Ctrl-C stops both.
 *
 * Everything runs under the Node that runs this script (its bin folder first on the children's
 * PATH, its headers as node-gyp's nodedir: ./native-driver.js), and the app's better-sqlite3 is
 * checked to load in it, rebuilt if it does not, before the server starts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
	cleanEnv,
	cliBin,
	copyFixture,
	install,
	localBin,
	repoRoot,
	run,
	runCli,
	setEnv,
	waitForHttp
} from '../e2e/harness/app.js';
import { ensureNativeDriver, nodeEnv } from './native-driver.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
// SvelteKit 3 needs Node 22.17 or later; on an older Node the demo is a SvelteKit 2 app.
const FIXTURE = major > 22 || (major === 22 && minor >= 17) ? 'kit3-ts' : 'kit2-ts';
const PORT = 5173;
const demoRoot = path.join(repoRoot, '.demo');
const appDir = path.join(demoRoot, 'app');
const extraArgs = process.argv.slice(2);
/** For every child: this Node first on the PATH, and its headers for node-gyp. */
const env = nodeEnv();

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
	console.error(`\ndemo: ${message}`);
	process.exit(1);
}

// 1. The CLI is TypeScript compiled to dist/ (by `npm install`'s prepare, or `npm run build`).
if (!existsSync(path.join(repoRoot, 'dist', 'cli.js'))) {
	console.log('demo: dist/cli.js is missing, building the CLI (npm run build)...');
	const result = await run('npm', ['run', 'build'], { cwd: repoRoot, env, echo: true, timeout: 300_000 });
	if (result.exitCode !== 0) fail('npm run build failed');
}

// 2. A fresh copy of the fixture in .demo/app.
await fs.rm(appDir, { recursive: true, force: true, maxRetries: 3 });
await fs.mkdir(demoRoot, { recursive: true });
await copyFixture(FIXTURE, { dest: appDir });
console.log(`demo: copied e2e/fixtures/${FIXTURE} to ${path.relative(process.cwd(), appDir) || appDir}`);

// 3. create-auth with both sign-in methods (it installs the app's dependencies itself).
const cliArgs = ['--yes', '--providers', 'credentials,idp', ...extraArgs];
console.log(`demo: running create-auth ${cliArgs.join(' ')} (${path.relative(repoRoot, cliBin)})...\n`);
const cli = await runCli(appDir, cliArgs, { env, echo: true });
if (cli.exitCode !== 0) fail(`create-auth exited with code ${cli.exitCode}`);

if (!existsSync(path.join(appDir, 'node_modules', '.bin', 'vite'))) {
	console.log('\ndemo: the app has no node_modules yet, running npm install...');
	await install(appDir, { env, echo: true }).catch((/** @type {Error} */ error) => fail(error.message));
}

// The SQLite driver is native: built for another Node, every sign-up would get a 503.
const driver = await ensureNativeDriver(appDir, { env, echo: true }).catch((/** @type {Error} */ error) => fail(error.message));
if (driver.status === 'rebuilt') {
	console.log(`demo: better-sqlite3 did not load in Node ${process.version} (${driver.why}); rebuilt it for this Node.`);
}

// 4. The dev IdP, and its client in the app's .env (the idp keys create-auth left empty).
const { DEFAULT_CLIENT, DEFAULT_PORT, startDevIdp } = await import(path.join(repoRoot, 'dist', 'dev-idp', 'index.js'));
const idp = await startDevIdp({ port: DEFAULT_PORT }).catch((/** @type {Error} */ error) =>
	fail(`cannot start the dev IdP on port ${DEFAULT_PORT}: ${error.message}`)
);
if (existsSync(path.join(appDir, '.env'))) {
	await setEnv(path.join(appDir, '.env'), {
		AUTH_IDP_ISSUER: idp.issuer,
		AUTH_IDP_ID: DEFAULT_CLIENT.clientId,
		AUTH_IDP_SECRET: DEFAULT_CLIENT.clientSecret,
		AUTH_IDP_TENANT_ID: 'dev'
	});
}

// 5. vite dev in the foreground.
const url = `http://127.0.0.1:${PORT}`;
const vite = spawn(localBin(appDir, 'vite'), ['dev', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'], {
	cwd: appDir,
	env: cleanEnv(env),
	stdio: 'inherit'
});
let exited = false;
vite.on('exit', (code, signal) => {
	exited = true;
	void idp.stop();
	process.exitCode = code ?? (signal ? 0 : 1);
});
vite.on('error', (error) => fail(`cannot start vite: ${error.message}`));
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => {
		if (!exited) vite.kill(signal);
	});
}

if (await waitForHttp(`${url}/`, { timeout: 60_000, until: () => exited })) {
	console.log(`
Demo app: ${url}
  ${url}/signup   create an account
  ${url}/signin   sign in, with the password or through the dev IdP (${idp.user.email} / ${idp.password})
  ${url}/account  a guarded page (redirects to sign-in when signed out)
  ${url}/signout  sign out
The app is in ${path.relative(process.cwd(), appDir) || appDir}; edit it freely. Ctrl-C stops the server.
`);
} else if (!exited) {
	console.error(`demo: vite dev did not answer on ${url} within 60 s; still waiting for it (Ctrl-C to stop).`);
} else {
	console.error(`demo: vite dev exited (is port ${PORT} already in use?)`);
}
