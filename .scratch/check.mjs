import { check } from '../e2e/harness/app.js';
import { node22 } from '../e2e/harness/node.js';
const [dir, tsconfig = './tsconfig.json', kit3] = process.argv.slice(2);
const env = kit3 ? (await node22()).env : undefined;
const c = await check(dir, { tsconfig, env });
console.log(c.errors, c.warnings, JSON.stringify(c.diagnostics, null, 1).slice(0, 3000));
