import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFormatter, type Formatter } from './format.js';

/** This repo's installed packages, linked into the temp apps as if the app had installed them. */
const require = createRequire(import.meta.url);
const INSTALLED = {
	prettier: path.dirname(require.resolve('prettier/package.json')),
	'prettier-plugin-svelte': path.dirname(require.resolve('prettier-plugin-svelte/package.json'))
};

/** `.prettierrc` as `npx sv add prettier` writes it. */
const SV_PRETTIERRC = `{
	"useTabs": true,
	"singleQuote": true,
	"trailingComma": "none",
	"printWidth": 100,
	"plugins": ["prettier-plugin-svelte"],
	"overrides": [
		{
			"files": "*.svelte",
			"options": {
				"parser": "svelte"
			}
		}
	]
}
`;

/** `prettier.config.js` as newer `sv` versions write it instead of `.prettierrc`. */
const SV_PRETTIER_CONFIG_JS = `/** @type {import('prettier').Config} */
export default {
	useTabs: true,
	singleQuote: true,
	trailingComma: 'none',
	printWidth: 100,
	plugins: ['prettier-plugin-svelte'],
	overrides: [{ files: '*.svelte', options: { parser: 'svelte' } }]
};
`;

/** `.prettierignore` as `npx sv add prettier` writes it. */
const SV_PRETTIERIGNORE = `# Package Managers
package-lock.json
pnpm-lock.yaml
yarn.lock
bun.lock
bun.lockb

# Miscellaneous
/static/
`;

const TS_INPUT = `import { redirect } from "@sveltejs/kit";
export const load = async ({ locals, url }) => {
  const session = await locals.auth();
  if (!session) redirect(303, "/signin?redirectTo=" + encodeURIComponent(url.pathname + url.search + url.hash));
  return { session, greeting: "Signed in as " + session.user.email, links: ["/account", "/signout"] }
}
`;

const SVELTE_INPUT = `<script lang="ts">
  let { data } = $props();
  const label = "Sign out";
</script>

<h1>Account</h1>
<form method="POST" action="/signout"><input type="hidden" name="redirectTo" value="/" /><button type="submit">{label}</button></form>
`;

const temp: string[] = [];
afterAll(async () => {
	await Promise.all(temp.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface AppOptions {
	/** Packages in package.json's devDependencies. */
	declared?: string[];
	/** Packages linked into node_modules from this repo's install. */
	installed?: Array<keyof typeof INSTALLED>;
	/** Other files, by app-relative path. */
	files?: Record<string, string>;
}

/** A SvelteKit-shaped app in a fresh temp folder; by default with sv's Prettier set-up. */
async function createApp(options: AppOptions = {}): Promise<string> {
	const {
		declared = ['prettier', 'prettier-plugin-svelte'],
		installed = ['prettier', 'prettier-plugin-svelte'],
		files = { '.prettierrc': SV_PRETTIERRC, '.prettierignore': SV_PRETTIERIGNORE }
	} = options;
	const root = await mkdtemp(path.join(os.tmpdir(), 'create-auth-format-'));
	temp.push(root);
	const devDependencies = Object.fromEntries(declared.map((name) => [name, '^3.0.0']));
	await writeFile(
		path.join(root, 'package.json'),
		JSON.stringify({ name: 'app', private: true, type: 'module', devDependencies }, null, '\t')
	);
	await mkdir(path.join(root, 'node_modules'));
	for (const name of installed) await symlink(INSTALLED[name], path.join(root, 'node_modules', name), 'dir');
	for (const [file, text] of Object.entries(files)) {
		await mkdir(path.dirname(path.join(root, file)), { recursive: true });
		await writeFile(path.join(root, file), text);
	}
	return root;
}

async function formatterFor(options?: AppOptions): Promise<Formatter> {
	const format = await loadFormatter(await createApp(options));
	if (!format) throw new Error('expected the app to have Prettier');
	return format;
}

/** A plugin only the app has (create-auth's own node_modules lacks it), exported for `import` only. */
const SHOUT_PLUGIN = {
	'package.json': JSON.stringify({ name: 'prettier-plugin-shout', exports: { '.': { import: './index.mjs' } } }),
	'index.mjs': `export const languages = [{ name: 'Shout', parsers: ['shout'], extensions: ['.shout'] }];
export const parsers = {
	shout: { parse: (text) => ({ text }), astFormat: 'shout', locStart: () => 0, locEnd: (node) => node.text.length }
};
export const printers = { shout: { print: (path) => path.node.text.toUpperCase() } };
`
};

/** What `prettier --write .` makes of TS_INPUT and SVELTE_INPUT with sv's config. */
const TS_SV = `import { redirect } from '@sveltejs/kit';
export const load = async ({ locals, url }) => {
	const session = await locals.auth();
	if (!session)
		redirect(303, '/signin?redirectTo=' + encodeURIComponent(url.pathname + url.search + url.hash));
	return {
		session,
		greeting: 'Signed in as ' + session.user.email,
		links: ['/account', '/signout']
	};
};
`;

const SVELTE_SV = `<script lang="ts">
	let { data } = $props();
	const label = 'Sign out';
</script>

<h1>Account</h1>
<form method="POST" action="/signout">
	<input type="hidden" name="redirectTo" value="/" /><button type="submit">{label}</button>
</form>
`;

describe('loadFormatter', () => {
	describe.each([
		['.prettierrc', { '.prettierrc': SV_PRETTIERRC }],
		['prettier.config.js', { 'prettier.config.js': SV_PRETTIER_CONFIG_JS }]
	])('with sv’s Prettier set-up (%s)', (_, config) => {
		it('formats TypeScript with tabs, single quotes, no trailing commas and lines wrapped at 100', async () => {
			const format = await formatterFor({ files: { ...config, '.prettierignore': SV_PRETTIERIGNORE } });
			expect(await format('src/routes/account/+page.server.ts', TS_INPUT)).toBe(TS_SV);
		});

		it('formats Svelte components through the app’s prettier-plugin-svelte', async () => {
			const format = await formatterFor({ files: { ...config, '.prettierignore': SV_PRETTIERIGNORE } });
			expect(await format('src/routes/account/+page.svelte', SVELTE_INPUT)).toBe(SVELTE_SV);
		});
	});

	it('writes what the app’s own `prettier --write .` writes', async () => {
		const files: Record<string, string> = {
			'src/routes/account/+page.server.ts': TS_INPUT,
			'src/routes/account/+page.svelte': SVELTE_INPUT,
			'src/lib/server/auth/local.ts': TS_INPUT,
			'static/robots.js': TS_INPUT,
			'README.md': '# App\n*  one\n*  two\n'
		};
		const root = await createApp({
			files: {
				'.prettierrc': SV_PRETTIERRC,
				'.prettierignore': SV_PRETTIERIGNORE,
				'.gitignore': 'src/lib/server/auth/local.ts\n',
				'.editorconfig': 'root = true\n\n[*.md]\nindent_style = space\nindent_size = 4\n',
				...files
			}
		});
		const format = await loadFormatter(root);
		const expected = await Promise.all(Object.entries(files).map(([file, text]) => format!(file, text)));
		execFileSync(process.execPath, [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--write', '.'], {
			cwd: root,
			stdio: 'ignore'
		});
		const written = await Promise.all(Object.keys(files).map((file) => readFile(path.join(root, file), 'utf8')));
		expect(expected).toEqual(written);
		expect(expected).toEqual([TS_SV, SVELTE_SV, TS_INPUT, TS_INPUT, '# App\n\n- one\n- two\n']);
	});

	it('follows the options of the config that applies to each file, overrides included', async () => {
		const format = await formatterFor({
			files: {
				'.prettierrc': JSON.stringify({
					semi: false,
					overrides: [{ files: 'src/lib/**/*.ts', options: { semi: true, singleQuote: true } }]
				})
			}
		});
		const route = await format('src/routes/account/+page.server.ts', 'const greeting = "hi";\nexport { greeting };\n');
		const lib = await format('src/lib/server/auth/index.ts', 'const greeting = "hi";\nexport { greeting };\n');
		expect(route).toBe('const greeting = "hi"\nexport { greeting }\n');
		expect(lib).toBe("const greeting = 'hi';\nexport { greeting };\n");
	});

	it('takes indentation from .editorconfig where the Prettier config is silent', async () => {
		const format = await formatterFor({
			files: {
				'.prettierrc': '{ "singleQuote": true }\n',
				'.editorconfig': 'root = true\n\n[*]\nindent_style = space\nindent_size = 4\n'
			}
		});
		expect(await format('src/auth.ts', 'export function f() {\n\treturn "x";\n}\n')).toBe(
			"export function f() {\n    return 'x';\n}\n"
		);
	});

	it.each([
		['.prettierignore', 'src/routes/account/+page.server.ts', { '.prettierignore': 'src/routes/account/\n' }],
		['.prettierignore (sv’s /static/)', 'static/robots.ts', { '.prettierignore': SV_PRETTIERIGNORE }],
		['.gitignore', 'src/lib/generated.ts', { '.gitignore': '/src/lib/generated.ts\n' }]
	])('leaves a file that %s ignores unchanged', async (_, file, ignore) => {
		const format = await formatterFor({ files: { '.prettierrc': SV_PRETTIERRC, ...ignore } });
		expect(await format(file, TS_INPUT)).toBe(TS_INPUT);
		expect(await format('src/routes/other.ts', TS_INPUT)).toBe(TS_SV);
	});

	it('loads a plugin named in the config from the app, even one create-auth does not have', async () => {
		expect(() => require.resolve('prettier-plugin-shout')).toThrow();
		const format = await formatterFor({
			files: {
				'.prettierrc': '{ "plugins": ["prettier-plugin-shout"] }',
				...Object.fromEntries(
					Object.entries(SHOUT_PLUGIN).map(([file, text]) => [`node_modules/prettier-plugin-shout/${file}`, text])
				)
			}
		});
		expect(await format('notes/hello.shout', 'hello\n')).toBe('HELLO\n');
	});

	it('loads a plugin named by a path relative to the config file', async () => {
		const format = await formatterFor({
			files: { 'config/.prettierrc': '{ "plugins": ["../tools/shout.mjs"] }', 'tools/shout.mjs': SHOUT_PLUGIN['index.mjs'] }
		});
		expect(await format('config/hello.shout', 'hello\n')).toBe('HELLO\n');
	});

	it.each([
		['a TypeScript syntax error', 'src/auth.ts', 'export const x = ;\n'],
		['a Svelte syntax error', 'src/routes/+page.svelte', '<script lang="ts">\n  let x = ;\n</script>\n<div>\n'],
		['a file with no parser', '.env.example', 'AUTH_SECRET=  "x"\n'],
		[
			'a plugin that is not installed',
			'src/auth.ts',
			'const a = "b"\n',
			{ '.prettierrc': '{ "plugins": ["prettier-plugin-missing"] }' }
		],
		['a config that is not valid JSON', 'src/auth.ts', 'const a = "b"\n', { '.prettierrc': '{ "semi": ' }]
	])('returns the text unchanged, without throwing, for %s', async (_, file, text, files = { '.prettierrc': SV_PRETTIERRC }) => {
		const format = await formatterFor({ files });
		await expect(format(file, text)).resolves.toBe(text);
	});

	it('is idempotent on its own output', async () => {
		const format = await formatterFor();
		for (const [file, text] of [
			['src/routes/account/+page.server.ts', TS_INPUT],
			['src/routes/account/+page.svelte', SVELTE_INPUT]
		] as const) {
			const once = await format(file, text);
			expect(once).not.toBe(text);
			expect(await format(file, once)).toBe(once);
		}
	});

	it.each([
		['prettier is not a dependency, even though it is installed', { declared: ['prettier-plugin-svelte'] }],
		['prettier is a dependency but not installed', { installed: [] }]
	] satisfies Array<[string, AppOptions]>)('is undefined when %s', async (_, options) => {
		expect(await loadFormatter(await createApp(options))).toBeUndefined();
	});

	it('formats with the app’s own copy of Prettier, not create-auth’s', async () => {
		const format = await formatterFor({
			installed: [],
			files: {
				'node_modules/prettier/package.json': JSON.stringify({
					name: 'prettier',
					version: '3.99.0',
					exports: { '.': { require: './index.cjs', default: './index.mjs' } }
				}),
				'node_modules/prettier/index.mjs': `export const version = '3.99.0';
export const resolveConfig = async () => null;
export const getFileInfo = async () => ({ ignored: false, inferredParser: 'babel' });
export const format = async (text) => 'app prettier: ' + text;
`
			}
		});
		expect(await format('src/auth.ts', 'x\n')).toBe('app prettier: x\n');
	});

	it('finds Prettier and its plugin hoisted to the node_modules of the workspace the app is a package of', async () => {
		const workspace = await mkdtemp(path.join(os.tmpdir(), 'create-auth-format-ws-'));
		temp.push(workspace);
		await writeFile(path.join(workspace, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, workspaces: ['apps/*'] }));
		await mkdir(path.join(workspace, 'node_modules'));
		for (const [name, dir] of Object.entries(INSTALLED)) await symlink(dir, path.join(workspace, 'node_modules', name), 'dir');
		const app = path.join(workspace, 'apps/web');
		await mkdir(app, { recursive: true });
		const devDependencies = { prettier: '^3.0.0', 'prettier-plugin-svelte': '^3.0.0' };
		await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'web', private: true, type: 'module', devDependencies }));
		await writeFile(path.join(app, '.prettierrc'), SV_PRETTIERRC);
		const format = await loadFormatter(app);
		expect(format).toBeDefined();
		expect(await format!('src/routes/account/+page.svelte', SVELTE_INPUT)).toBe(SVELTE_SV);
	});

	it('is undefined when the app has Prettier 2', async () => {
		const root = await createApp({
			installed: [],
			files: {
				'node_modules/prettier/package.json': JSON.stringify({ name: 'prettier', version: '2.8.8', main: 'index.js' }),
				'node_modules/prettier/index.js': "module.exports = { version: '2.8.8', format: (text) => text };\n"
			}
		});
		expect(await loadFormatter(root)).toBeUndefined();
	});

	it('is undefined when the folder has no package.json', async () => {
		const root = await mkdtemp(path.join(os.tmpdir(), 'create-auth-format-'));
		temp.push(root);
		expect(await loadFormatter(root)).toBeUndefined();
	});
});
