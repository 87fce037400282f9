import { build, check, copyFixture, runCli } from '../e2e/harness/app.js';
const [fixture, ...args] = process.argv.slice(2);
const dir = await copyFixture(fixture, { dest: `/tmp/app-${fixture}-${Date.now()}` });
const cli = await runCli(dir, ['--yes', ...args]);
console.log(cli.exitCode, cli.stdout.slice(-400), cli.stderr.slice(-800));
const checked = await check(dir);
console.log('check', JSON.stringify(checked).slice(0, 3000));
await build(dir);
console.log('built', dir);
