import { describe, expect, it } from 'vitest';
import { addDependencies } from './package-json.js';

describe('addDependencies', () => {
	it('adds missing packages sorted, keeping tab indentation and the final newline', () => {
		const source = '{\n\t"name": "app",\n\t"devDependencies": {\n\t\t"vite": "^8.0.0"\n\t}\n}\n';
		const result = addDependencies(source, { jose: '^6.0.0' }, { '@types/x': '^1.0.0' });
		expect(result).toBe(
			'{\n\t"name": "app",\n\t"devDependencies": {\n\t\t"@types/x": "^1.0.0",\n\t\t"vite": "^8.0.0"\n\t},\n\t"dependencies": {\n\t\t"jose": "^6.0.0"\n\t}\n}\n'
		);
	});

	it("keeps the app's own range and returns the text untouched when nothing is missing", () => {
		const source = '{\n  "dependencies": { "jose": "5.0.0" }\n}';
		expect(addDependencies(source, { jose: '^6.0.0' }, {})).toBe(source);
	});
});
