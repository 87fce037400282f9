/**
 * A native driver built for another Node: an app installed under this process's Node, whose
 * better-sqlite3 addon is therefore built for its NODE_MODULE_VERSION, is served by another Node
 * from npm (22, or 24 when this is 22), as after switching Node with a version manager. The server says it is misconfigured
 * (not "for a moment") and logs one line naming the driver; a create-auth run that installs
 * (`add-provider passkey`) and `create-auth doctor` under that Node name the Node the addon was
 * built for and the fix; the fix (`npm rebuild better-sqlite3` under the serving Node) makes doctor pass
 * and the app sign users up again.
 */
import { getAbi } from 'node-abi';
import { expect, it } from 'vitest';
import { run, runCli, start, type Server } from './harness/app.js';
import { nodeToolchain } from './harness/node.js';
import { postForm } from './lockout-flow.js';

/** The Node the app was installed with (this process's), and its ABI. */
const BUILT = { major: Number(process.versions.node.split('.')[0]), abi: process.versions.modules };
/** The Node from npm that serves it: another major than {@link BUILT}'s. */
const serving = () => nodeToolchain(BUILT.major === 22 ? 24 : 22);

/** Where the flow signs up from: a loopback address of its own (the app allows 10 sign-ups an hour per client). */
const SIGN_UP_CLIENT = '127.0.0.73';

/** `create-auth doctor --json` in `appDir` under the serving Node (`env` added to its toolchain's): its `adapter-driver` check. */
async function driverCheck(appDir: string, env: Record<string, string> = {}): Promise<{ status: string; message: string; hint?: string }> {
	const toolchain = await serving();
	const doctor = await runCli(appDir, ['doctor', '--json'], { node: toolchain.node, env: { ...toolchain.env, ...env } });
	const { checks } = JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; message: string; hint?: string }> };
	return checks.find((check) => check.id === 'adapter-driver')!;
}

/**
 * Registers the flow as a test of the enclosing `describe`: `appDir` is an app installed and built
 * under this process's Node with the SQLite adapter, served here on `port` (its AUTH_URL's), where
 * no server of it runs now. The test leaves its better-sqlite3 built for the serving Node.
 */
export function nativeDriverFlows(app: () => { appDir: string; port: number }): void {
	it('names a driver built for another Node in the server’s answer, its log and doctor, and npm rebuild fixes it', async () => {
		const { appDir, port } = app();
		const toolchain = await serving();
		const runs = { major: toolchain.version.split('.')[0]!.slice(1), abi: getAbi(toolchain.version.slice(1), 'node') };
		const underServing = `under Node v${runs.major}\\.\\d+\\.\\d+`;
		let server: Server | undefined;
		try {
			server = await start(appDir, { mode: 'preview', env: toolchain.env, port });
			for (const email of ['first@example.com', 'second@example.com']) {
				const answer = await postForm(`${server.url}/signup`, { email: `abi-${Date.now()}-${email}`, password: 'correct horse battery' }, SIGN_UP_CLIENT);
				expect(answer.status).toBe(503);
				expect(answer.body).toContain('Sign-up is not available: the server is misconfigured. Its log says what to fix.');
				expect(answer.body).not.toContain('for a moment');
			}
			const logged = server.output().split('\n').filter((line) => line.includes('DriverUnavailable'));
			expect(logged).toEqual([
				expect.stringMatching(
					new RegExp(`^DriverUnavailable: better-sqlite3 cannot load: it was built for NODE_MODULE_VERSION ${BUILT.abi}, and this Node \\(v${runs.major}\\.\\d+\\.\\d+\\) needs ${runs.abi}\\. Run npm rebuild better-sqlite3`)
				)
			]);
			await server.stop();
			server = undefined;

			// A create-auth run that installs under that Node (npm leaves the built addon as it is)
			// loads the driver after its install and says the same.
			const added = await runCli(appDir, ['add-provider', 'passkey'], { node: toolchain.node, env: toolchain.env });
			expect(added.exitCode).toBe(0);
			expect(added.stdout).toContain('Dependencies installed');
			expect(added.stdout).toMatch(new RegExp(`better-sqlite3 cannot load ${underServing}: it was built for Node ${BUILT.major} \\(NODE_MODULE_VERSION ${BUILT.abi}\\)`));
			expect(added.stdout).toContain(`Run npm rebuild better-sqlite3 with the Node that runs the app, or run the app with Node ${BUILT.major}.`);

			const before = await driverCheck(appDir);
			expect(before).toMatchObject({
				status: 'error',
				message: expect.stringMatching(new RegExp(`^better-sqlite3 cannot load ${underServing}: it was built for Node ${BUILT.major} \\(NODE_MODULE_VERSION ${BUILT.abi}\\), and this Node needs NODE_MODULE_VERSION ${runs.abi}\\.`))
			});
			expect(before.hint).toBe(`Run npm rebuild better-sqlite3 with the Node that runs the app, or run the app with Node ${BUILT.major}.`);
			// A common cause: npm's nodedir pointing node-gyp at Node 20's headers (this machine's /usr).
			// doctor names it, and gives the rebuild with the serving Node's own headers.
			const blamed = await driverCheck(appDir, { npm_config_nodedir: '/usr' });
			expect(blamed.hint).toBe(
				`npm's nodedir setting (/usr) has Node 20's headers, so node-gyp builds addons for Node 20: run npm_config_nodedir=${toolchain.nodedir} npm rebuild better-sqlite3 (this Node's own headers) with the Node that runs the app, or run the app with Node ${BUILT.major}; to stop it happening again, npm config delete nodedir.`
			);

			// That fix, run as a user would: with the serving Node on the PATH, the command's npm_config_nodedir
			// over this machine's npmrc (nodedir=/usr).
			const rebuilt = await run('npm', ['rebuild', 'better-sqlite3'], { cwd: appDir, env: { ...toolchain.env, npm_config_nodedir: toolchain.nodedir }, timeout: 300_000 });
			expect(rebuilt.exitCode).toBe(0);
			expect(await driverCheck(appDir)).toMatchObject({ status: 'ok', message: "The sqlite adapter's driver is installed and loads (better-sqlite3)." });
			server = await start(appDir, { mode: 'preview', env: toolchain.env, port });
			const answer = await postForm(`${server.url}/signup`, { email: `abi-${Date.now()}-fixed@example.com`, password: 'correct horse battery' }, SIGN_UP_CLIENT);
			expect(answer).toMatchObject({ status: 303, location: '/account' });
		} finally {
			await server?.stop();
		}
	});
}
