// @ts-check
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_DEPENDENT, nodeDependentFiles } from './node-dependent.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

describe('NODE_DEPENDENT', () => {
	it('names test files that exist, each once, in the project its folder belongs to, each entry with its reason', () => {
		const files = NODE_DEPENDENT.flatMap((entry) => entry.files);
		expect(new Set(files).size).toBe(files.length);
		for (const entry of NODE_DEPENDENT) {
			expect(entry.why.length).toBeGreaterThan(20);
			for (const file of entry.files) {
				expect(existsSync(path.join(repoRoot, file)), file).toBe(true);
				expect(file.startsWith('e2e/') ? 'e2e' : 'unit', file).toBe(entry.project);
				expect(file, file).toMatch(/\.test\.(ts|js)$/);
			}
		}
	});

	it('nodeDependentFiles() gives one project\'s files', () => {
		expect(nodeDependentFiles('e2e')).toEqual(['e2e/harness-node-versions.test.ts']);
		expect(nodeDependentFiles('unit')).toContain('src/bin.test.ts');
		expect(nodeDependentFiles('unit')).not.toContain('e2e/harness-node-versions.test.ts');
	});
});
