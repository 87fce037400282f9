#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ caches compiled code between runs (a no-op regenerate starts faster); older Nodes skip it.
module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');

process.exitCode = await main(process.argv);
