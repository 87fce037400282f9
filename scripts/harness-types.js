#!/usr/bin/env node
// Regenerate (or, with --check, verify) the .d.ts files next to the e2e harness's JSDoc-typed
// JavaScript (e2e/harness/*.js), so that TypeScript tests get real types without allowJs.
// The JS is type-checked strictly on the way (checkJs). Usage:
//   node scripts/harness-types.js          write e2e/harness/*.d.ts
//   node scripts/harness-types.js --check  exit 1 if they are stale or the JS has type errors
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const harness = path.join(root, 'e2e', 'harness');
const sources = fs.readdirSync(harness).filter((f) => f.endsWith('.js'));
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'create-auth-dts-'));
const HEADER = '// Generated from the .js file of the same name by `node scripts/harness-types.js`. Do not edit.\n';

try {
	const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
	// prettier-ignore
	const flags = ['--allowJs', '--checkJs', '--declaration', '--emitDeclarationOnly', '--strict',
		'--noUncheckedIndexedAccess', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution',
		'NodeNext', '--skipLibCheck', '--types', 'node', '--rootDir', harness, '--outDir', out];
	try {
		execFileSync(process.execPath, [tsc, ...flags, ...sources.map((f) => path.join(harness, f))], {
			cwd: root,
			stdio: 'pipe',
			timeout: 120_000
		});
	} catch (error) {
		const e = /** @type {{ stdout?: Buffer }} */ (error);
		process.stderr.write(String(e.stdout ?? error));
		process.exit(1);
	}
	let stale = 0;
	for (const source of sources) {
		const name = source.replace(/\.js$/, '.d.ts');
		const fresh = HEADER + fs.readFileSync(path.join(out, name), 'utf8');
		const target = path.join(harness, name);
		const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null;
		if (current === fresh) continue;
		stale++;
		if (process.argv.includes('--check')) {
			console.error(`stale: e2e/harness/${name}`);
		} else {
			fs.writeFileSync(target, fresh);
			console.log(`wrote e2e/harness/${name}`);
		}
	}
	if (stale && process.argv.includes('--check')) {
		console.error('run: node scripts/harness-types.js');
		process.exit(1);
	}
} finally {
	fs.rmSync(out, { recursive: true, force: true });
}
