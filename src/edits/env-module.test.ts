import { describe, expect, it } from 'vitest';
import type { AuthEnvVar } from '../env-vars.js';
import { addEnvVariables } from './env-module.js';

const SECRET: AuthEnvVar = { key: 'AUTH_SECRET', description: 'Encrypts cookies.', example: '' };
const URL_VAR: AuthEnvVar = { key: 'AUTH_URL', description: "The app's URL.", example: '' };

const declaration = (key: string, description: string, indent = '\t') =>
	[`${indent}${key}: {`, `${indent}\tpublic: false,`, `${indent}\tdescription: ${description},`, `${indent}\tschema: (value) => value`, `${indent}}`].join(
		'\n'
	);

describe('addEnvVariables', () => {
	it('fills an empty defineEnvVars({}) with private, optional, run-time variables', () => {
		const source = "import { defineEnvVars } from '@sveltejs/kit/env';\n\nexport const variables = defineEnvVars({});\n";
		const { content, pending } = addEnvVariables(source, [SECRET, URL_VAR]);
		expect(pending).toBeUndefined();
		expect(content).toBe(
			`import { defineEnvVars } from '@sveltejs/kit/env';\n\nexport const variables = defineEnvVars({\n${declaration('AUTH_SECRET', "'Encrypts cookies.'")},\n${declaration('AUTH_URL', "'The app\\'s URL.'")}\n});\n`
		);
	});

	it("appends to the user's variables, keeping theirs byte for byte, and leaves a key they declared alone", () => {
		const source = [
			"import { defineEnvVars } from '@sveltejs/kit/env';",
			'',
			'export const variables = defineEnvVars({',
			'  DATABASE_URL: { schema: (input) => input ?? "" },',
			'  AUTH_SECRET: { schema: (input) => input ?? "" },',
			'});',
			''
		].join('\n');
		const { content } = addEnvVariables(source, [SECRET, URL_VAR]);
		expect(content).toBe(
			[
				"import { defineEnvVars } from '@sveltejs/kit/env';",
				'',
				'export const variables = defineEnvVars({',
				'  DATABASE_URL: { schema: (input) => input ?? "" },',
				'  AUTH_SECRET: { schema: (input) => input ?? "" },',
				declaration('AUTH_URL', "'The app\\'s URL.'", '  ').replace(/\t/g, '  ') + ',',
				'});',
				''
			].join('\n')
		);
	});

	it('accepts a plain object with satisfies, and is idempotent', () => {
		const source = "export const variables = {\n\tAPI_KEY: {}\n} satisfies Record<string, object>;\n";
		const once = addEnvVariables(source, [SECRET]).content;
		expect(once).toContain(`\tAPI_KEY: {},\n${declaration('AUTH_SECRET', "'Encrypts cookies.'")}\n}`);
		expect(addEnvVariables(once, [SECRET]).content).toBe(once);
	});

	it.each([
		['no variables export', 'export const env = defineEnvVars({});\n'],
		['variables built by a function of its own', 'export const variables = makeVariables();\n'],
		['a file that does not parse', 'export const variables = defineEnvVars({\n']
	])('leaves the file alone and reports a manual step for %s', (_, source) => {
		const { content, pending } = addEnvVariables(source, [SECRET]);
		expect(content).toBe(source);
		expect(pending).toMatch(/AUTH_SECRET: \{ public: false, schema: \(value\) => value \}/);
	});
});
