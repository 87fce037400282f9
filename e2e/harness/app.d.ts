// Generated from the .js file of the same name by `node scripts/harness-types.js`. Do not edit.
/**
 * @typedef {object} RunResult
 * @property {number} exitCode  exit code (128 + signal number when killed by a signal, e.g. on timeout)
 * @property {string} stdout
 * @property {string} stderr
 * @property {boolean} timedOut
 * @property {number} durationMs
 */
/**
 * The environment children get: ours, minus what `npm run`/`npm test` injects (`npm_*`,
 * `INIT_CWD`), so that an app's own npm and the CLI's package-manager detection behave as in
 * a user's shell; plus `extra`.
 * @param {Record<string, string | undefined>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function cleanEnv(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
/**
 * Run a command to completion in its own process group. Never throws for a non-zero exit;
 * rejects only if the command cannot be started. On timeout the whole group gets SIGTERM,
 * then SIGKILL 5 s later. `echo: true` also copies the output to ours as it arrives.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: Record<string, string | undefined>, timeout?: number, echo?: boolean }} options
 * @returns {Promise<RunResult>}
 */
export function run(command: string, args: string[], { cwd, env, timeout, echo }: {
    cwd: string;
    env?: Record<string, string | undefined>;
    timeout?: number;
    echo?: boolean;
}): Promise<RunResult>;
/**
 * Copy `e2e/fixtures/<name>` into a new folder and return its absolute path: by default a new
 * temp folder `<os.tmpdir()>/create-auth-e2e-XXXXXX`; with `dest`, that folder (which must not
 * exist or be empty). `node_modules` and `.svelte-kit` are never copied.
 * @param {string} name  fixture folder name, e.g. `'kit2-ts'`
 * @param {{ dest?: string }} [options]
 * @returns {Promise<string>}
 */
export function copyFixture(name: string, { dest }?: {
    dest?: string;
}): Promise<string>;
/**
 * Run the CLI (`node bin/create-auth.js ...args`) in `appDir`: stdin ignored (not a TTY),
 * `CI=1`, `NO_COLOR=1` (override with `env`). Never throws on a non-zero exit.
 * @param {string} appDir
 * @param {string[]} args
 * @param {{ env?: Record<string, string | undefined>, timeout?: number, echo?: boolean }} [options]
 * @returns {Promise<RunResult>}
 */
export function runCli(appDir: string, args: string[], { env, timeout, echo }?: {
    env?: Record<string, string | undefined>;
    timeout?: number;
    echo?: boolean;
}): Promise<RunResult>;
/**
 * `npm install --no-audit --no-fund` in the app. Throws (with the output's tail) on failure.
 * The first install of better-sqlite3 compiles from source, hence the 10-minute default.
 * @param {string} appDir
 * @param {{ timeout?: number, args?: string[], echo?: boolean }} [options]
 * @returns {Promise<RunResult>}
 */
export function install(appDir: string, { timeout, args, echo }?: {
    timeout?: number;
    args?: string[];
    echo?: boolean;
}): Promise<RunResult>;
/**
 * Absolute path of `node_modules/.bin/<name>` in the app; throws if it is not installed.
 * @param {string} appDir
 * @param {string} name
 * @returns {string}
 */
export function localBin(appDir: string, name: string): string;
/**
 * `vite build` with the app's own vite. Throws (with the output's tail) on failure.
 * @param {string} appDir
 * @param {{ timeout?: number, env?: Record<string, string | undefined>, echo?: boolean }} [options]
 * @returns {Promise<RunResult>}
 */
export function build(appDir: string, { timeout, env, echo }?: {
    timeout?: number;
    env?: Record<string, string | undefined>;
    echo?: boolean;
}): Promise<RunResult>;
/**
 * @typedef {object} CheckDiagnostic
 * @property {'ERROR' | 'WARNING'} type
 * @property {string} file
 * @property {number} line
 * @property {number} column
 * @property {string} message
 */
/**
 * @typedef {object} CheckResult
 * @property {number} exitCode  svelte-kit sync's if it failed, else svelte-check's
 * @property {string} output  stdout + stderr of both steps
 * @property {number | null} errors  from svelte-check's COMPLETED line (null if there is none)
 * @property {number | null} warnings
 * @property {number | null} files
 * @property {number | null} filesWithProblems
 * @property {CheckDiagnostic[]} diagnostics  the ERROR / WARNING lines, parsed
 */
/**
 * `svelte-kit sync && svelte-check --tsconfig ./tsconfig.json --output machine`.
 * Never throws for type errors: look at `errors` / `diagnostics`.
 * @param {string} appDir
 * @param {{ timeout?: number, tsconfig?: string }} [options]
 * @returns {Promise<CheckResult>}
 */
export function check(appDir: string, { timeout, tsconfig }?: {
    timeout?: number;
    tsconfig?: string;
}): Promise<CheckResult>;
/**
 * Parse svelte-check's `--output machine` text.
 * @param {string} text
 */
export function parseSvelteCheck(text: string): {
    diagnostics: CheckDiagnostic[];
    errors: number | null;
    warnings: number | null;
    files: number | null;
    filesWithProblems: number | null;
};
/**
 * A TCP port that was free on 127.0.0.1 a moment ago (listen on port 0, read it, close).
 * @returns {Promise<number>}
 */
export function freePort(): Promise<number>;
/**
 * Poll `url` with GET (redirects not followed, 2 s per request) every 200 ms until any HTTP
 * answer comes back (true), `timeout` ms pass or `until()` returns true (false).
 * @param {string} url
 * @param {{ timeout?: number, until?: () => boolean }} [options]
 * @returns {Promise<boolean>}
 */
export function waitForHttp(url: string, { timeout, until }?: {
    timeout?: number;
    until?: () => boolean;
}): Promise<boolean>;
/**
 * @typedef {object} Server
 * @property {string} url  e.g. `http://127.0.0.1:41234` (no trailing slash)
 * @property {number} port
 * @property {number | undefined} pid  the process group id
 * @property {() => Promise<void>} stop  kill the whole process group and wait for it to exit
 * @property {() => string} output  everything the server printed so far (stdout + stderr)
 */
/**
 * Start the app with its own vite: `vite preview` (needs build() first) or `vite dev`, on
 * 127.0.0.1 and a free port (or `port`), `--strictPort`. Resolves once `GET /` gets any HTTP
 * answer (redirects are not followed); rejects, after stopping the server, if it exits first
 * or does not answer within `timeout` (polls every 200 ms).
 * @param {string} appDir
 * @param {{ mode?: 'preview' | 'dev', port?: number, timeout?: number, env?: Record<string, string | undefined> }} [options]
 * @returns {Promise<Server>}
 */
export function start(appDir: string, { mode, port, timeout, env }?: {
    mode?: "preview" | "dev";
    port?: number;
    timeout?: number;
    env?: Record<string, string | undefined>;
}): Promise<Server>;
/**
 * Delete an app folder. Refuses anything that copyFixture() did not create in this process,
 * unless it is a `create-auth-e2e-*` folder directly under os.tmpdir().
 * @param {string} appDir
 * @returns {Promise<void>}
 */
export function removeApp(appDir: string): Promise<void>;
/** Absolute path of the create-auth repository. */
export const repoRoot: string;
/** Absolute path of `e2e/fixtures`. */
export const fixturesDir: string;
/** Absolute path of the CLI entry (`bin/create-auth.js`, which imports `dist/cli.js`). */
export const cliBin: string;
export type RunResult = {
    /**
     * exit code (128 + signal number when killed by a signal, e.g. on timeout)
     */
    exitCode: number;
    stdout: string;
    stderr: string;
    timedOut: boolean;
    durationMs: number;
};
export type CheckDiagnostic = {
    type: "ERROR" | "WARNING";
    file: string;
    line: number;
    column: number;
    message: string;
};
export type CheckResult = {
    /**
     * svelte-kit sync's if it failed, else svelte-check's
     */
    exitCode: number;
    /**
     * stdout + stderr of both steps
     */
    output: string;
    /**
     * from svelte-check's COMPLETED line (null if there is none)
     */
    errors: number | null;
    warnings: number | null;
    files: number | null;
    filesWithProblems: number | null;
    /**
     * the ERROR / WARNING lines, parsed
     */
    diagnostics: CheckDiagnostic[];
};
export type Server = {
    /**
     * e.g. `http://127.0.0.1:41234` (no trailing slash)
     */
    url: string;
    port: number;
    /**
     * the process group id
     */
    pid: number | undefined;
    /**
     * kill the whole process group and wait for it to exit
     */
    stop: () => Promise<void>;
    /**
     * everything the server printed so far (stdout + stderr)
     */
    output: () => string;
};
