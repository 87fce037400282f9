import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from '../answers.js';
import { loadTemplates } from '../assets.js';
import { authEnvVars } from '../env-vars.js';
import type { KitShape } from '../kit.js';
import { PROVIDERS } from '../providers/index.js';
import { createRenderer, templateContext } from '../render.js';
import { applyModuleDelta } from './module-delta.js';

const KIT2: KitShape = { major: 2, libImports: false, explicitEnv: false, requestEvent: true, resolve: true };
const KIT3: KitShape = { major: 3, libImports: true, explicitEnv: true, requestEvent: true, resolve: true };
let renderAuth: (providers: string[], kit?: KitShape) => string;

beforeAll(async () => {
	const render = createRenderer(await loadTemplates());
	renderAuth = (providers, kit = KIT2) => {
		const answers = { ...DEFAULT_ANSWERS, providers };
		return render('auth.ts.hbs', templateContext(answers, kit, authEnvVars(answers, 'x').map((v) => v.key), true));
	};
});

/** The same hand edits, applied to any rendering of src/auth.ts. */
function userEdits(text: string): string {
	return text
		.replace('export const {', "const mine = Credentials({ id: 'mine', authorize: () => null });\n\nexport const {")
		.replace(/providers: \[credentials/, 'providers: [credentials, mine')
		.replace("session: { strategy: 'jwt' },", "session: { strategy: 'jwt' },\n\t\tdebug: true,");
}

describe('applyModuleDelta on src/auth.ts', () => {
	it('turns one rendering into the other exactly, adding and removing each provider, on both majors', () => {
		for (const kit of [KIT2, KIT3]) {
			for (const first of PROVIDERS) {
				for (const second of PROVIDERS.filter((p) => p !== first)) {
					const [from, to] = [renderAuth([first.id], kit), renderAuth([first.id, second.id], kit)];
					expect(applyModuleDelta(from, from, to, 'src/auth.ts'), `add ${second.id} to ${first.id}`).toEqual({ content: to, pending: [] });
					expect(applyModuleDelta(to, to, from, 'src/auth.ts'), `remove ${second.id}`).toEqual({ content: from, pending: [] });
				}
			}
		}
	});

	it("adds a provider next to the user's own provider and option, touching none of their lines", () => {
		const [from, to] = [renderAuth(['credentials']), renderAuth(['credentials', 'github'])];
		const result = applyModuleDelta(userEdits(from), from, to, 'src/auth.ts')!;
		expect(result.pending).toEqual([]);
		// Each addition lands after the user's items that follow its predecessor.
		const githubDeclaration = to.slice(to.indexOf('/**', to.indexOf('const credentials')), to.indexOf('export const {'));
		const expected = userEdits(from)
			.replace("import Credentials from '$lib/server/auth/providers/credentials';", "$&\nimport GitHub from '$lib/server/auth/providers/github';")
			.replace('export const { handle, signIn, signOut, signUp, requestPasswordReset, resetPassword, changePassword, setPassword, verifyEmail }', `${githubDeclaration}export const { handle, signIn, signOut, signUp, requestPasswordReset, resetPassword, changePassword, setPassword, verifyEmail, getProviders }`)
			.replace('providers: [credentials, mine]', 'providers: [credentials, mine, github]');
		expect(result.content).toBe(expected);
	});

	it('keeps the style of a providers array the user wrote one per line', () => {
		const [from, to] = [renderAuth(['credentials', 'idp']), renderAuth(['credentials', 'idp', 'google'])];
		const multiline = (text: string) => text.replace(/providers: \[([^\]]*)\]/, (_, list: string) => `providers: [\n\t\t\t${list.split(', ').join(',\n\t\t\t')}\n\t\t]`);
		const result = applyModuleDelta(multiline(from), from, to, 'src/auth.ts')!;
		expect(result.content).toContain('providers: [\n\t\t\tcredentials,\n\t\t\tidp,\n\t\t\tgoogle\n\t\t]');
		expect(result.content).toBe(multiline(to));
	});

	it('never adds twice what the user already added by hand', () => {
		const [from, to] = [renderAuth(['credentials']), renderAuth(['credentials', 'github'])];
		expect(applyModuleDelta(to, from, to, 'src/auth.ts')).toEqual({ content: to, pending: [] });
	});

	it('keeps, and reports, a declaration the user changed and an import it still uses when the provider goes', () => {
		const [withGitHub, without] = [renderAuth(['credentials', 'github']), renderAuth(['credentials'])];
		const edited = withGitHub.replace('const github = GitHub({', "const github = GitHub({\n\tallowDangerousEmailAccountLinking: true,");
		expect(edited).not.toBe(withGitHub);
		const result = applyModuleDelta(edited, withGitHub, without, 'src/auth.ts')!;
		expect(result.content).toContain('providers: [credentials]');
		expect(result.content).toContain('allowDangerousEmailAccountLinking: true');
		expect(result.content).toMatch(/import GitHub from/);
		expect(result.pending).toEqual([
			expect.stringMatching(/^src\/auth\.ts: `github` has your changes, so it was kept/),
			expect.stringMatching(/^src\/auth\.ts: the import from '.*github' was kept because GitHub is still used/)
		]);
	});

	it('returns undefined when the user file does not parse', () => {
		const [from, to] = [renderAuth(['credentials']), renderAuth(['credentials', 'github'])];
		expect(applyModuleDelta(`${from}\nconst broken = ;\n`, from, to, 'src/auth.ts')).toBeUndefined();
	});
});
