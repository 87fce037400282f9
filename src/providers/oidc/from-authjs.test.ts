import type { ObjectExpression } from '@babel/types';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../edits/ast.js';
import { GUIDE_OIDC_CONFIG } from '../../test/authjs-guide.js';
import { readAuthjsConfig } from '../../switch/authjs.js';
import { carryOidcIdentity, envReadsOf, oidcEnvEntries, readInlineOidc } from './from-authjs.js';

/** The first object literal of `source` (the provider), with the env reads of its imports. */
function inline(source: string) {
	const ast = parseModule(source)!;
	const imports = ast.program.body.flatMap((node) => (node.type === 'ImportDeclaration' ? [node] : []));
	const declaration = ast.program.body.find((node) => node.type === 'VariableDeclaration')!;
	const object = (declaration as { declarations: Array<{ init: ObjectExpression }> }).declarations[0]!.init;
	return readInlineOidc(object, envReadsOf(imports));
}

describe('readInlineOidc', () => {
	it("reads the guide's inline provider: its id, name and settings from $env/dynamic/private", () => {
		expect(readAuthjsConfig(GUIDE_OIDC_CONFIG)).toMatchObject({
			providers: ['oidc'],
			oidc: { id: 'idp', name: 'Dev IdP', settings: { issuer: { env: 'AUTH_IDP_ISSUER' }, clientId: { env: 'AUTH_IDP_ID' }, clientSecret: { env: 'AUTH_IDP_SECRET' } } },
			unsupported: []
		});
	});

	it('reads settings from $env/static/private, process.env and string literals; id oidc by default', () => {
		const source = `import { ISSUER as issuerUrl } from '$env/static/private';
const provider = { type: 'oidc', issuer: issuerUrl, clientId: process.env.CLIENT, clientSecret: 'written-in-code' };`;
		expect(inline(source)).toEqual({ id: 'oidc', settings: { issuer: { env: 'ISSUER' }, clientId: { env: 'CLIENT' }, clientSecret: { value: 'written-in-code' } } });
	});

	it('says why it cannot carry a provider with other options or a setting it cannot read, and leaves other objects alone', () => {
		expect(inline(`const p = { type: 'oidc', issuer: 'https://x', clientId: 'a', clientSecret: 'b', checks: ['pkce'] };`)).toMatch(/options beyond id, name, issuer/);
		expect(inline(`const p = { type: 'oidc', issuer: issuerOf(), clientId: 'a', clientSecret: 'b' };`)).toBe("The inline OpenID Connect provider's issuer is neither a string nor an environment variable.");
		expect(inline(`const p = { type: 'oidc', id: someId, issuer: 'https://x', clientId: 'a', clientSecret: 'b' };`)).toMatch(/id or name is not a string/);
		expect(inline(`const p = { type: 'oauth', issuer: 'https://x' };`)).toBeUndefined();
	});
});

describe('oidcEnvEntries', () => {
	it("moves the values of the variables Auth.js read, or written in its config, to create-auth's, and names those .env does not set", () => {
		const oidc = { id: 'idp', settings: { issuer: { env: 'AUTH_IDP_ISSUER' }, clientId: { value: 'client-1' }, clientSecret: { env: 'AUTH_IDP_SECRET' } } };
		const { entries, unset } = oidcEnvEntries(oidc, 'AUTH_IDP_ISSUER="http://127.0.0.1:9000"\n');
		expect(entries.map(({ key, value }) => [key, value])).toEqual([
			['AUTH_OIDC_ISSUER', 'http://127.0.0.1:9000'],
			['AUTH_OIDC_ID', 'client-1']
		]);
		expect(unset).toEqual([{ from: 'AUTH_IDP_SECRET', to: 'AUTH_OIDC_SECRET' }]);
	});
});

describe('carryOidcIdentity', () => {
	const ours = `/**
 * Any OpenID Connect provider, found by discovery at its issuer URL. Register the callback URL
 * \`<app origin>/auth/callback/oidc\` with it, and put the issuer, client id and secret in .env.
 */
const oidc = OIDC({
\tissuer: env.AUTH_OIDC_ISSUER,
\tclientId: env.AUTH_OIDC_ID,
\tclientSecret: env.AUTH_OIDC_SECRET
});
`;

	it("gives create-auth's oidc declaration the carried id and name first, and its comment the callback URL of that id", () => {
		const text = carryOidcIdentity(ours, { id: 'idp', name: "Ada's IdP" });
		expect(text).toContain("const oidc = OIDC({\n\tid: 'idp',\n\tname: 'Ada\\'s IdP',\n\tissuer: env.AUTH_OIDC_ISSUER,");
		expect(text).toContain('`<app origin>/auth/callback/idp`');
		expect(parseModule(text)).toBeDefined();
	});

	it('leaves the declaration as it is for the default id without a name', () => {
		expect(carryOidcIdentity(ours, { id: 'oidc' })).toBe(ours);
	});
});
