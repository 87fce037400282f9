// @ts-check
/**
 * What depends on the Node version, and so runs under every Node create-auth supports, where the
 * rest of the suite runs under the active LTS only (docs/compatibility.md, the "Node versions tested" row). `scripts/ci-node.js`
 * runs these under Node 20 and 22 on every CI run; `scripts/node-dependent.test.js` keeps the
 * list true (every file exists and is in the project named).
 *
 * A file belongs here when its outcome can change with Node itself: a native addon's ABI, a
 * global or a `node:` API that one major has and another lacks or changed, Node's OpenSSL, or the
 * start of a process under that Node. Everything else is plain JavaScript on V8 and runs once.
 */

/**
 * @typedef {object} NodeDependent
 * @property {'unit' | 'e2e'} project  the vitest project the files belong to
 * @property {readonly string[]} files  paths from the repository root
 * @property {string} why  what differs between Node versions
 */

/** @type {readonly NodeDependent[]} */
export const NODE_DEPENDENT = [
	{
		project: 'unit',
		files: ['runtime/server/auth/adapters/sqlite.test.ts', 'runtime/server/auth/adapters/sqlite-driver.test.ts', 'runtime/server/auth/adapters/prisma.test.ts'],
		why: 'better-sqlite3 is a native addon built per Node ABI (12 on Node 20 and 22, 13 on 24); Prisma loads it through its driver adapter'
	},
	{
		project: 'unit',
		files: ['src/driver-load.test.ts'],
		why: "the CLI's load check of a native driver names the running Node's ABI (process.versions.modules, node-abi's table)"
	},
	{
		project: 'unit',
		files: ['runtime/server/auth/passwords/hashing.test.ts', 'runtime/server/auth/passwords/hashing-workers.test.ts', 'runtime/server/auth/session/jwt.test.ts'],
		why: "scrypt's memory bound and the JWE/JWS algorithms come from the OpenSSL each Node bundles; Workers detection reads navigator.userAgent, a global Node 21+ defines and 20 lacks"
	},
	{
		project: 'unit',
		files: ['src/bin.test.ts'],
		why: "the CLI's own start: bin/create-auth.js under that Node (module.enableCompileCache exists from 22.1), as users run it"
	},
	{
		project: 'e2e',
		files: ['e2e/harness-node-versions.test.ts'],
		why: "the harness's file copies (fs.cp of a folder onto an existing one throws from Node 22) and the demo's native-driver check"
	}
];

/**
 * The files of {@link NODE_DEPENDENT} in `project`.
 * @param {'unit' | 'e2e'} project
 * @returns {string[]}
 */
export function nodeDependentFiles(project) {
	return NODE_DEPENDENT.filter((entry) => entry.project === project).flatMap((entry) => entry.files);
}
