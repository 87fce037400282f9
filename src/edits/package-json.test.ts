import { describe, expect, it } from 'vitest';
import { addDependencies, addSubpathImports } from './package-json.js';

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

describe('addSubpathImports', () => {
	it('maps #lib/* in an app without an imports field, keeping the rest of the file', () => {
		const source = '{\n\t"name": "app",\n\t"type": "module"\n}\n';
		expect(addSubpathImports(source, { '#lib/*': './src/lib/*' })).toBe(
			'{\n\t"name": "app",\n\t"type": "module",\n\t"imports": {\n\t\t"#lib/*": "./src/lib/*"\n\t}\n}\n'
		);
	});

	it("keeps the app's own mapping and returns the text untouched when it has one", () => {
		const source = '{\n  "imports": { "#lib": "./src/lib/index.js", "#lib/*": "./lib/*" }\n}\n';
		expect(addSubpathImports(source, { '#lib/*': './src/lib/*' })).toBe(source);
	});
});
