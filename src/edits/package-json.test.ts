import { describe, expect, it } from 'vitest';
import {
	addDependencies,
	addSubpathImports,
	allowBuildScripts,
	allowNpmScripts,
	allowPnpmBuilds,
	allowPnpmWorkspaceBuilds,
	removeDependencies,
	trustBunDependencies
} from './package-json.js';

describe('removeDependencies', () => {
	it('removes the packages from either section and keeps indentation, order and the rest', () => {
		const source = '{\n  "name": "app",\n  "dependencies": {\n    "better-sqlite3": "^13.0.2"\n  },\n  "devDependencies": {\n    "auth": "1.7.7",\n    "better-auth": "1.7.7",\n    "vite": "^8.0.16"\n  }\n}\n';
		expect(removeDependencies(source, ['better-auth', 'auth', 'lucia'])).toBe(
			'{\n  "name": "app",\n  "dependencies": {\n    "better-sqlite3": "^13.0.2"\n  },\n  "devDependencies": {\n    "vite": "^8.0.16"\n  }\n}\n'
		);
	});

	it('returns the text unchanged when none of the packages is declared', () => {
		const source = '{\n\t"devDependencies": { "vite": "^8" }\n}';
		expect(removeDependencies(source, ['better-auth'])).toBe(source);
	});
});

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

const APP = '{\n\t"name": "app",\n\t"dependencies": {\n\t\t"better-sqlite3": "^12.11.1"\n\t}\n}\n';
const NATIVE = ['better-sqlite3'];

describe('allowBuildScripts', () => {
	it("allows the build in package.json's allowScripts for npm, and writes no pnpm-workspace.yaml", () => {
		const result = allowBuildScripts('npm', APP, undefined, NATIVE);
		expect(JSON.parse(result.packageJson).allowScripts).toEqual({ 'better-sqlite3': true });
		expect(result).not.toHaveProperty('workspace');
		expect(result.pending).toEqual([]);
	});

	it('allows the build in pnpm-workspace.yaml for pnpm, leaving package.json alone', () => {
		expect(allowBuildScripts('pnpm', APP, undefined, NATIVE)).toEqual({
			packageJson: APP,
			workspace: 'allowBuilds:\n  better-sqlite3: true\n',
			pending: []
		});
	});

	it.each(['yarn', 'bun'] as const)('changes nothing for %s, which runs better-sqlite3’s script by default', (manager) => {
		expect(allowBuildScripts(manager, APP, undefined, NATIVE)).toEqual({ packageJson: APP, pending: [] });
	});

	it('changes nothing when no dependency needs a build', () => {
		expect(allowBuildScripts('pnpm', APP, undefined, [])).toEqual({ packageJson: APP, pending: [] });
	});
});

describe('allowNpmScripts', () => {
	it('adds allowScripts at the end, keeping the indentation and the final newline', () => {
		expect(allowNpmScripts(APP, NATIVE).content).toBe(
			'{\n\t"name": "app",\n\t"dependencies": {\n\t\t"better-sqlite3": "^12.11.1"\n\t},\n\t"allowScripts": {\n\t\t"better-sqlite3": true\n\t}\n}\n'
		);
	});

	it("adds to the app's own allowScripts and is idempotent", () => {
		const source = '{\n  "allowScripts": { "esbuild": false }\n}\n';
		const once = allowNpmScripts(source, NATIVE);
		expect(JSON.parse(once.content).allowScripts).toEqual({ esbuild: false, 'better-sqlite3': true });
		expect(allowNpmScripts(once.content, NATIVE)).toEqual({ content: once.content });
	});

	it('keeps a pinned approval as it is', () => {
		const source = '{\n  "allowScripts": { "better-sqlite3@12.11.1": true }\n}\n';
		expect(allowNpmScripts(source, NATIVE)).toEqual({ content: source });
	});

	it("leaves the app's deny alone and returns the manual step", () => {
		const source = '{\n  "allowScripts": { "better-sqlite3": false }\n}\n';
		const result = allowNpmScripts(source, NATIVE);
		expect(result.content).toBe(source);
		expect(result.pending).toMatch(/allowScripts denies better-sqlite3/);
	});

	it('does not edit an allowScripts that is not an object', () => {
		const source = '{ "allowScripts": ["better-sqlite3"] }';
		expect(allowNpmScripts(source, NATIVE)).toEqual({ content: source, pending: expect.stringContaining('npm approve-scripts better-sqlite3') });
	});
});

describe('trustBunDependencies', () => {
	it("leaves an app without trustedDependencies alone: Bun's default list trusts better-sqlite3", () => {
		expect(trustBunDependencies(APP, NATIVE)).toEqual({ content: APP });
	});

	it("appends to the app's own list, which replaces Bun's default one", () => {
		const source = '{\n  "trustedDependencies": ["esbuild"]\n}\n';
		expect(trustBunDependencies(source, NATIVE)).toEqual({ content: '{\n  "trustedDependencies": [\n    "esbuild",\n    "better-sqlite3"\n  ]\n}\n' });
		expect(trustBunDependencies('{ "trustedDependencies": ["better-sqlite3"] }', NATIVE)).toEqual({ content: '{ "trustedDependencies": ["better-sqlite3"] }' });
	});

	it('returns a manual step instead of writing a list that would drop the default one', () => {
		expect(trustBunDependencies(APP, ['some-native'])).toEqual({ content: APP, pending: 'Trust some-native in package.json: bun pm trust some-native' });
	});
});

describe('allowPnpmBuilds', () => {
	it('adds to pnpm.onlyBuiltDependencies when package.json keeps it (pnpm 10), and allows the build in pnpm-workspace.yaml too', () => {
		const source = '{\n  "pnpm": { "onlyBuiltDependencies": ["esbuild"] }\n}\n';
		const result = allowPnpmBuilds(source, undefined, NATIVE);
		expect(JSON.parse(result.packageJson).pnpm).toEqual({ onlyBuiltDependencies: ['esbuild', 'better-sqlite3'] });
		expect(result.workspace).toBe('allowBuilds:\n  better-sqlite3: true\n');
		expect(allowPnpmBuilds(result.packageJson, result.workspace, NATIVE)).toEqual({ packageJson: result.packageJson, workspace: result.workspace, pending: [] });
	});

	it('edits nothing when package.json denies the build with pnpm.neverBuiltDependencies', () => {
		const source = '{ "pnpm": { "neverBuiltDependencies": ["better-sqlite3"] } }';
		const result = allowPnpmBuilds(source, undefined, NATIVE);
		expect(result).toEqual({ packageJson: source, pending: [expect.stringMatching(/neverBuiltDependencies lists better-sqlite3/)] });
	});
});

describe('allowPnpmWorkspaceBuilds', () => {
	it('creates the file when the app has none', () => {
		expect(allowPnpmWorkspaceBuilds(undefined, NATIVE)).toEqual({ content: 'allowBuilds:\n  better-sqlite3: true\n' });
	});

	it('appends allowBuilds to a file without it, with its indentation, keeping every line', () => {
		const source = "packages:\n    - 'packages/*'\n# shared settings\nnodeLinker: hoisted\n";
		expect(allowPnpmWorkspaceBuilds(source, NATIVE)).toEqual({ content: `${source}allowBuilds:\n    better-sqlite3: true\n` });
		expect(allowPnpmWorkspaceBuilds('nodeLinker: hoisted', NATIVE)).toEqual({ content: 'nodeLinker: hoisted\nallowBuilds:\n  better-sqlite3: true\n' });
	});

	it("adds an entry after the last one of the app's allowBuilds, keeping its comments, and is idempotent", () => {
		const source = "allowBuilds:\n  # decided with pnpm approve-builds\n  '@parcel/watcher': false\n  esbuild: true # its postinstall checks the binary\n\npackages:\n  - .\n";
		const once = allowPnpmWorkspaceBuilds(source, NATIVE);
		expect(once).toEqual({
			content:
				"allowBuilds:\n  # decided with pnpm approve-builds\n  '@parcel/watcher': false\n  esbuild: true # its postinstall checks the binary\n  better-sqlite3: true\n\npackages:\n  - .\n"
		});
		expect(allowPnpmWorkspaceBuilds(once.content, NATIVE)).toEqual({ content: once.content });
	});

	it('fills an empty allowBuilds and quotes a scoped name', () => {
		expect(allowPnpmWorkspaceBuilds('allowBuilds:\nnodeLinker: hoisted\n', ['@scope/native']).content).toBe(
			"allowBuilds:\n  '@scope/native': true\nnodeLinker: hoisted\n"
		);
	});

	it('keeps the line endings of a CRLF file', () => {
		expect(allowPnpmWorkspaceBuilds('allowBuilds:\r\n  esbuild: true\r\n', NATIVE).content).toBe('allowBuilds:\r\n  esbuild: true\r\n  better-sqlite3: true\r\n');
	});

	it.each([
		['a pinned approval', "allowBuilds:\n  'better-sqlite3@12.11.1': true\n"],
		['an approval in capitals', 'allowBuilds:\n  better-sqlite3: True\n'],
		['dangerouslyAllowAllBuilds', 'dangerouslyAllowAllBuilds: true\n']
	])('changes nothing when the file already allows the build (%s)', (_, source) => {
		expect(allowPnpmWorkspaceBuilds(source, NATIVE)).toEqual({ content: source });
	});

	it("leaves the app's deny alone and returns the manual step", () => {
		const source = "allowBuilds:\n  better-sqlite3: false\n  esbuild: 'warn'\n";
		const result = allowPnpmWorkspaceBuilds(source, NATIVE);
		expect(result.content).toBe(source);
		expect(result.pending).toMatch(/does not allow better-sqlite3/);
	});

	it('adds to onlyBuiltDependencies where the app lists its approvals there (pnpm 10.5 to 10.25)', () => {
		const source = 'onlyBuiltDependencies:\n- esbuild\n';
		expect(allowPnpmWorkspaceBuilds(source, NATIVE)).toEqual({ content: 'onlyBuiltDependencies:\n- esbuild\n- better-sqlite3\n' });
		expect(allowPnpmWorkspaceBuilds('onlyBuiltDependencies:\n  - "better-sqlite3"\n', NATIVE)).toEqual({ content: 'onlyBuiltDependencies:\n  - "better-sqlite3"\n' });
	});

	it.each([
		['flow style', 'allowBuilds: { esbuild: true }\n'],
		['a nested value', 'allowBuilds:\n  esbuild:\n    value: true\n'],
		['tabs', 'allowBuilds:\n\tesbuild: true\n'],
		['several documents', '---\nallowBuilds:\n  esbuild: true\n'],
		['an alias', 'defaults: &defaults\n  esbuild: true\nallowBuilds: *defaults\n'],
		['neverBuiltDependencies', 'neverBuiltDependencies:\n  - fsevents\n'],
		['the key twice', 'allowBuilds:\n  esbuild: true\nallowBuilds:\n  sharp: true\n'],
		['a top-level sequence', '- esbuild\n']
	])('does not edit a shape it does not know (%s): the manual step instead', (_, source) => {
		const result = allowPnpmWorkspaceBuilds(source, NATIVE);
		expect(result.content).toBe(source);
		expect(result.pending).toBe('Allow the build scripts of better-sqlite3 in pnpm-workspace.yaml: allowBuilds: better-sqlite3: true (or run pnpm approve-builds)');
	});
});
