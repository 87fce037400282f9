import { resolveAnswers, type Answers } from '../answers.js';
import { parseModule, walk } from '../edits/ast.js';
import { declaredVariables } from '../edits/env-module.js';
import { authEnvVars, featureEnvVars } from '../env-vars.js';
import { MAIL_ENV } from '../providers/email.js';
import { lookupEnv, type Check, type EnvSources } from './check.js';

/** Modules whose imports are environment variables, by how they expose them. */
const NAMED_ENV_MODULES = ['$app/env/private', '$env/static/private'];
const OBJECT_ENV_MODULES = ['$env/dynamic/private', '$app/env/private', '$env/static/private'];

/**
 * `env-missing:<KEY>` (warn) for each variable of the answers' providers (create-auth writes
 * them empty, for the user to fill in) and of their rate-limit store (`REDIS_URL`) that is unset
 * or empty in `.env`, `.env.local` and the environment; the bare `env-missing` (ok) when none is.
 * The mail settings are not among them (an empty `EMAIL_FROM` has a default): the
 * `email-server` check follows, when the providers email links.
 */
export function missingEnvChecks(input: { answers: Answers; env: EnvSources }): Check[] {
	const mailKeys = new Set(MAIL_ENV.map(({ key }) => key));
	const providers: Check[] = resolveAnswers(input.answers).providers.flatMap((scaffold) => {
		return scaffold.env
			.filter(({ key }) => !mailKeys.has(key) && !lookupEnv(input.env, key))
			.map(({ key, description }): Check => ({
				id: `env-missing:${key}`,
				status: 'warn',
				message: `${key} is empty or missing in .env: ${description}`,
				hint: `Fill it in .env; sign-in with ${scaffold.label} fails until it is set.`
			}));
	});
	const features = featureEnvVars(input.answers);
	const featureChecks = features
		.filter(({ key }) => !lookupEnv(input.env, key))
		.map(({ key, description, hint }): Check => ({
			id: `env-missing:${key}`,
			status: 'warn',
			message: `${key} is empty or missing in .env: ${description}`,
			hint: hint ?? 'Set it in .env and in the production environment.'
		}));
	const checks = [...providers, ...featureChecks];
	const mail = mailCheck(input);
	if (checks.length > 0) return [...checks, ...mail];
	const labels = resolveAnswers(input.answers).features.filter(({ env }) => env.length > 0).map(({ label }) => label);
	const readers = ['the providers', ...labels].join(' and ');
	return [{ id: 'env-missing', status: 'ok', message: `Every variable ${readers} read is set.` }, ...mail];
}

/**
 * `email-server`, for apps that email links (the email provider's sign-in links, credentials'
 * password-reset links): always ok, since an empty `EMAIL_SERVER` is right while developing
 * (links go to the server log), but it says so, with the reminder for production.
 */
function mailCheck(input: { answers: Answers; env: EnvSources }): Check[] {
	const mails = resolveAnswers(input.answers).providers.some(({ env }) => env.some(({ key }) => key === 'EMAIL_SERVER'));
	if (!mails) return [];
	if (lookupEnv(input.env, 'EMAIL_SERVER')) return [{ id: 'email-server', status: 'ok', message: 'EMAIL_SERVER is set: emailed links (sign-in, password reset) are sent by SMTP.' }];
	return [
		{
			id: 'email-server',
			status: 'ok',
			message: 'EMAIL_SERVER is empty: emailed links (sign-in, password reset) are printed to the server log, not sent.',
			hint: 'Fine while developing. Set EMAIL_SERVER and EMAIL_FROM in the production environment before anyone needs such a link.'
		}
	];
}

/**
 * `env-declared`, on apps with explicit environment variables only: error when `src/env.(ts|js)`
 * is missing or does not declare a variable `src/auth.(ts|js)` reads (SvelteKit provides only
 * declared variables), warn when its `variables` cannot be read (another shape).
 *
 * The variables read are those `src/auth.(ts|js)` imports from `$app/env/private` (or reads
 * from `$env/dynamic/private`'s `env`); without a readable `src/auth`, those the answers need.
 */
export function declaredEnvChecks(input: { answers: Answers; explicitEnv: boolean; files: Record<string, string | undefined> }): Check[] {
	if (!input.explicitEnv) return [];
	const authPath = ['src/auth.ts', 'src/auth.js'].find((p) => input.files[p] !== undefined);
	const read = (authPath && readEnvKeys(input.files[authPath]!)) || authEnvVars(input.answers, '').map((variable) => variable.key);
	const reader = authPath ?? 'the generated code';
	const envPath = ['src/env.ts', 'src/env.js'].find((p) => input.files[p] !== undefined);
	const regenerate = 'Run npx create-auth regenerate, which declares them, or declare them by hand.';
	if (!envPath) {
		return [
			{
				id: 'env-declared',
				status: 'error',
				message: `This app declares its environment variables in src/env.ts, and there is none: ${reader} reads ${read.join(', ')}, which SvelteKit does not provide undeclared.`,
				hint: regenerate
			}
		];
	}
	const declared = declaredVariables(input.files[envPath]!);
	if (!declared) {
		return [
			{
				id: 'env-declared',
				status: 'warn',
				message: `Cannot tell which variables ${envPath} declares (no export const variables = defineEnvVars({ … }) object literal).`,
				hint: `Check by hand that it declares ${read.join(', ')}.`
			}
		];
	}
	const missing = read.filter((key) => !declared.has(key));
	if (missing.length === 0) {
		return [{ id: 'env-declared', status: 'ok', message: `${envPath} declares every variable ${reader} reads.` }];
	}
	return [
		{
			id: 'env-declared',
			status: 'error',
			message: `${envPath} does not declare ${missing.join(', ')}, which ${reader} reads: SvelteKit does not provide undeclared variables.`,
			hint: regenerate
		}
	];
}

/**
 * The environment variables a module reads: names imported from `$app/env/private` (or
 * `$env/static/private`), and `env.X` reads of a namespace or `env` import of those or of
 * `$env/dynamic/private`.
 *
 * @returns the keys in first-read order, or undefined when the source does not parse
 */
export function readEnvKeys(source: string): string[] | undefined {
	const ast = parseModule(source);
	if (!ast) return undefined;
	const keys = new Set<string>();
	const objects = new Set<string>();
	for (const node of ast.program.body) {
		if (node.type !== 'ImportDeclaration') continue;
		const from = node.source.value;
		for (const specifier of node.specifiers) {
			if (specifier.type === 'ImportSpecifier') {
				const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value;
				if (imported === 'env' && OBJECT_ENV_MODULES.includes(from)) objects.add(specifier.local.name);
				else if (NAMED_ENV_MODULES.includes(from)) keys.add(imported);
			} else if (specifier.type === 'ImportNamespaceSpecifier' && OBJECT_ENV_MODULES.includes(from)) {
				objects.add(specifier.local.name);
			}
		}
	}
	if (objects.size > 0) {
		walk(ast.program, (node) => {
			if (node.type !== 'MemberExpression' || node.object.type !== 'Identifier' || !objects.has(node.object.name)) return;
			if (!node.computed && node.property.type === 'Identifier') keys.add(node.property.name);
			else if (node.computed && node.property.type === 'StringLiteral') keys.add(node.property.value);
		});
	}
	return [...keys];
}
