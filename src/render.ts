import Handlebars from 'handlebars';
import { resolveAnswers, type Answers, type ResolvedAnswers } from './answers.js';
import type { TextFiles } from './assets.js';
import type { DrizzleSetup } from './drizzle.js';
import type { PrismaSetup } from './prisma.js';
import type { KitShape } from './kit.js';
import { PROVIDERS, type ProviderImport } from './providers/index.js';

/**
 * What templates see: flags to branch on with `{{#if}}` and lists for `{{#each}}`, derived
 * from the answers (resolved into descriptors) and the app's SvelteKit shape, and nothing else.
 * No provider or feature id is a flag here: a template that needs a provider's text renders
 * the chosen descriptors' sections ({@link TemplateContext.sections}).
 */
export interface TemplateContext {
	/**
	 * TypeScript (`tsconfig.json`): types in the code, `<script lang="ts">`. Else JavaScript with
	 * JSDoc types, as `sv create --types jsdoc` writes it, in files the plan names `.js`.
	 */
	typescript: boolean;
	/** The chosen providers in the order given: each one's declaration partial, listed by `id`. */
	providerList: Array<{ id: string; partial: string }>;
	/** The imports the chosen providers' declarations need (and Drizzle's `db`), ordered by module. */
	imports: ProviderImport[];
	/** The imports the chosen features need, after the adapter's. */
	featureImports: ProviderImport[];
	/** Names `src/auth.ts` imports from the runtime's entry beside `SvelteKitAuth` (the descriptors' `authImports`). */
	authImports: string[];
	/** Names `src/auth.ts` exports from `SvelteKitAuth(…)` after `handle, signIn, signOut` (the descriptors' `exports`, once each). */
	exports: string[];
	/**
	 * Each page slot (`signin/fields`) and the partials the chosen descriptors fill it with, in
	 * registry order (`ResolvedAnswers.parts`): `providers/<id>/signin/fields`,
	 * `features/<id>/auth/config`. A slot no chosen descriptor fills is absent. A page's form is
	 * its first `<page>/form` section's (the template renders only that one); the owner's
	 * `<page>/alternative…` sections, what it offers inside another's form, are left out.
	 */
	sections: Record<string, Array<{ id: string; partial: string }>>;
	/** Some descriptor offers sign-in in the autofill of the sign-in page's first email field (passkeys). */
	emailAutofill: boolean;
	/** Some provider signs in through a redirect (OAuth 2 / OpenID Connect): its button is listed by `getProviders()`, which `src/auth.ts` exports. */
	oauth: boolean;
	/** The sign-in page has a part of its own above any OAuth buttons: some descriptor's `signin/fields` section (fields, the passkey button). */
	signInFields: boolean;
	/**
	 * The runtime types of every registered provider whose sign-in is a section of the page
	 * (`signin/fields`: fields, the passkey button), chosen or not, in registry order: the page
	 * leaves them out of the buttons it makes from `getProviders()`.
	 */
	signInSectionTypes: string[];
	/** The sign-in page has an email field (a descriptor's `emailField`): passkeys are offered in its autofill. */
	signInEmailField: boolean;
	/** The password sign-in's address field takes a username too (a descriptor's `usernames`): labelled so, and typed as text. */
	signInUsernames: boolean;
	/** The sign-in page has an "or" between its parts: fields before the passkey button, or anything before OAuth buttons. */
	signInDivider: boolean;
	/** The app has a `/signup` page (some descriptor's route). */
	signUpPage: boolean;
	/**
	 * The names `src/auth.ts` imports from the adapter's lib module (`SQLiteAdapter`; a client
	 * too for some), that module, and its declaration's partial.
	 */
	adapter: { names: string; module: string; partial: string };
	/** The app's Drizzle setup, when the adapter is Drizzle's: its dialect and schema file. */
	drizzle?: { dialect: DrizzleSetup['dialect']; schema: string };
	/** The app's Prisma setup, when the adapter is Prisma's: its provider, schema file, and the client's local name in `src/auth.ts`. */
	prisma?: { provider: PrismaSetup['provider']; schema: string; client: string };
	/** The D1 database the D1 adapter reads, when it is the adapter: its binding and the Wrangler config that declares it. */
	d1?: { binding: string; config: string };
	strategy: Answers['strategy'];
	protect: string[];
	kit: {
		/** `#lib/…/index.js` subpath imports instead of `$lib/…` (see the `lib` helper). */
		libImports: boolean;
		/** Runtime folders imported by their index's name (`$lib/server/auth/index`): see {@link libSpecifier}. */
		shadowedLibFolders: string[];
		/** `src/env.ts` + `$app/env/private` + `$app/env`, instead of `$env/*` + `$app/environment`. */
		explicitEnv: boolean;
		/** `Handle` and the other hook types come from `@sveltejs/kit/hooks` (SvelteKit 3). */
		hookTypesInHooks: boolean;
		/** `getRequestEvent` can be imported from `$app/server` (SvelteKit 2.20+). */
		requestEvent: boolean;
		/** `resolve` can be imported from `$app/paths` (SvelteKit 2.26+): links and the runtime follow `paths.base` (see the `href` helper). */
		resolve: boolean;
	};
	env: {
		/** The variables `src/auth.ts` reads, in the order it reads them (so it imports them). */
		names: string[];
		/** How code reads each one: `env.AUTH_SECRET` (SvelteKit 2) or the imported `AUTH_SECRET`. */
		read: Record<string, string>;
	};
}

/** What of the app an adapter's declaration in `src/auth.ts` names (see {@link templateContext}). */
export interface AdapterData {
	drizzle?: DrizzleSetup;
	prisma?: PrismaSetup;
	d1?: { binding: string; config: string };
}

/**
 * The template context for a set of answers (or answers already resolved into descriptors),
 * in an app of the given shape and language.
 *
 * @param names the variables `src/auth.ts` reads, in that order (see `authEnvVars`)
 * @param typescript the app's language: TypeScript, or JavaScript with JSDoc types
 * @param data what of the app the adapter's declaration names: its Drizzle setup (used when the
 *   adapter is Drizzle's), its Prisma setup (Prisma's), create-auth's D1 binding and the Wrangler
 *   config naming it (D1's)
 */
export function templateContext(
	given: Answers | ResolvedAnswers,
	kit: KitShape,
	names: readonly string[],
	typescript: boolean,
	{ drizzle, prisma, d1 }: AdapterData = {}
): TemplateContext {
	const resolved = 'parts' in given ? given : resolveAnswers(given);
	const { answers, adapter, parts } = resolved;
	const scaffolds = resolved.providers;
	const onDrizzle = adapter.drizzle && drizzle;
	// Prisma's adapter takes the app's client, under its export's name (`prisma` for a default export).
	const onPrisma = adapter.prisma && prisma && { ...prisma, local: prisma.clientExport === 'default' ? 'prisma' : prisma.clientExport };
	// Drizzle's adapter takes the app's own `db`.
	const adapterImports = onDrizzle
		? [{ names: '{ db }', module: drizzle.db }]
		: onPrisma
			? [{ names: onPrisma.clientExport === 'default' ? onPrisma.local : `{ ${onPrisma.local} }`, module: onPrisma.client }]
			: [];
	// Buttons listed at run time by getProviders() (OAuth), which src/auth.ts then exports.
	const hasOAuth = parts.some((part) => part.exports?.includes('getProviders'));
	const hasEmailField = parts.some((part) => part.emailField);
	const emailAutofill = parts.some((part) => part.emailAutofill);
	const sections: TemplateContext['sections'] = {};
	for (const part of parts) {
		const kind = scaffolds.includes(part as (typeof scaffolds)[number]) ? 'providers' : 'features';
		for (const slot of part.sections ?? []) (sections[slot] ??= []).push({ id: part.id, partial: `${kind}/${part.id}/${slot}` });
	}
	// A page's form is the first `<page>/form` section's; its owner's `<page>/alternative…` sections
	// (what it offers inside another's form) are left out.
	for (const [slot, list] of Object.entries(sections)) {
		const owner = sections[slot.replace(/\/alternative[^/]*$/, '/form')]?.[0]?.id;
		if (/\/alternative[^/]*$/.test(slot) && owner !== undefined) {
			const kept = list.filter(({ id }) => id !== owner);
			if (kept.length > 0) sections[slot] = kept;
			else delete sections[slot];
		}
	}
	const hasFields = sections['signin/fields'] !== undefined;
	// Accounts made on this app (a password, a passkey): they sign up, and change things on /account.
	const hasAccountsOfOurOwn = parts.some((part) => part.routes.includes('signup/+page.svelte'));
	return {
		typescript,
		providerList: scaffolds.map(({ id }) => ({ id, partial: `providers/${id}` })),
		imports: [...adapterImports, ...scaffolds.flatMap((scaffold) => scaffold.imports)].sort((a, b) => a.module.localeCompare(b.module)),
		featureImports: resolved.features.flatMap((feature) => feature.imports),
		authImports: [...new Set(parts.flatMap((part) => part.authImports ?? []))],
		exports: [...new Set(parts.flatMap((part) => part.exports ?? []))],
		sections,
		emailAutofill,
		oauth: hasOAuth,
		signInFields: hasFields,
		signInEmailField: hasEmailField,
		signInUsernames: parts.some((part) => part.usernames),
		signInSectionTypes: [...new Set(PROVIDERS.filter(({ sections }) => sections?.includes('signin/fields')).map(({ type }) => type))],
		signInDivider: (hasEmailField && emailAutofill) || (hasFields && hasOAuth),
		signUpPage: hasAccountsOfOurOwn,
		adapter: {
			names: [adapter.factory, ...(adapter.alsoImports ?? [])].sort().join(', '),
			module: `server/auth/adapters/${answers.adapter}`,
			partial: `adapters/${answers.adapter}`
		},
		...(onDrizzle ? { drizzle: { dialect: drizzle.dialect, schema: drizzle.schema } } : {}),
		...(onPrisma ? { prisma: { provider: onPrisma.provider, schema: onPrisma.schema, client: onPrisma.local } } : {}),
		...(adapter.wrangler && d1 ? { d1 } : {}),
		strategy: answers.strategy,
		protect: answers.protect,
		kit: {
			libImports: kit.libImports,
			shadowedLibFolders: [...(kit.shadowedLibFolders ?? [])],
			explicitEnv: kit.explicitEnv,
			hookTypesInHooks: kit.major >= 3,
			requestEvent: kit.requestEvent,
			resolve: kit.resolve
		},
		env: { names: [...names], read: Object.fromEntries(names.map((name) => [name, kit.explicitEnv ? name : `env.${name}`])) }
	};
}

/**
 * The specifier that imports a module of the lib folder, given its path there without an
 * extension (`server/auth/index`, `server/auth/passwords`): the `$lib` alias with index files
 * implied (`$lib/server/auth`), or Node subpath imports, which need the file with the `.js`
 * extension TypeScript maps to `.ts` (`#lib/server/auth/index.js`), as `sv migrate` writes them.
 *
 * A folder in `kit.shadowedLibFolders` keeps its index named (`$lib/server/auth/index`): the
 * app has a module of the folder's name (`src/lib/server/auth.ts`, as `sv add better-auth`
 * writes), which TypeScript and Vite resolve the bare `$lib/server/auth` to before the folder
 * (issue 26). Only there, so other apps' code reads as before and a regenerate does not change it.
 *
 * @param kit the app's lib imports (`libImports`) and shadowed runtime folders (`server/auth`, `auth`)
 */
export function libSpecifier(modulePath: string, kit: Pick<KitShape, 'libImports' | 'shadowedLibFolders'>): string {
	if (kit.libImports) return `#lib/${modulePath}.js`;
	const implied = modulePath.replace(/\/?index$/, '');
	return kit.shadowedLibFolders?.includes(implied) ? `$lib/${modulePath}` : `$lib/${implied}`;
}

/**
 * A Svelte attribute value that links `route` (a route of the app, `/signin`), followed by the
 * value of the expression `suffix` when given (a query string the page computes): through
 * `resolve` from `$app/paths` where the app's SvelteKit has it (2.26+), so the link keeps
 * `paths.base` (`{resolve('/signin')}`, `"{resolve('/signup')}{query}"`), else the plain path.
 */
export function hrefValue(route: string, resolve: boolean, suffix?: string): string {
	const tail = suffix ? `{${suffix}}` : '';
	if (!resolve) return `"${route}${tail}"`;
	return tail ? `"{resolve('${route}')}${tail}"` : `{resolve('${route}')}`;
}

/**
 * Renders templates from memory (no I/O, so plans stay pure). Templates under `providers/`
 * and `adapters/` are also registered as partials named by their path without `.ts.hbs`
 * (`{{> providers/credentials}}`). Output is code, so nothing is HTML-escaped.
 *
 * Helpers, all registered here: `{{lib 'server/auth/index'}}`, a lib module's specifier for
 * the app's shape ({@link libSpecifier}); `href={{href '/signin'}}`, an attribute value linking a
 * route of the app ({@link hrefValue}).
 *
 * @param onLib called with every lib module a rendering names through `lib` (tests use it to
 *   check that the runtime an app is vendored covers what its files import)
 */
export function createRenderer(templates: TextFiles, onLib?: (modulePath: string) => void): (name: string, context: TemplateContext) => string {
	const handlebars = Handlebars.create();
	for (const [name, source] of Object.entries(templates)) {
		if (/^(providers|features|adapters)\//.test(name)) {
			handlebars.registerPartial(name.replace(/(\.ts)?\.hbs$/, ''), source);
		}
	}
	handlebars.registerHelper('lib', (modulePath: string, options: Handlebars.HelperOptions) => {
		onLib?.(modulePath);
		return libSpecifier(modulePath, (options.data.root as TemplateContext).kit);
	});
	handlebars.registerHelper('href', (route: string, ...rest: unknown[]) =>
		hrefValue(route, (rest.at(-1) as Handlebars.HelperOptions).data.root.kit.resolve, rest.length > 1 ? String(rest[0]) : undefined)
	);
	handlebars.registerHelper('eq', (a: unknown, b: unknown) => a === b);
	const compiled = new Map<string, HandlebarsTemplateDelegate>();
	return (name, context) => {
		let template = compiled.get(name);
		if (!template) {
			const source = templates[name];
			if (source === undefined) throw new Error(`Missing template ${name}`);
			template = handlebars.compile(source, { noEscape: true });
			compiled.set(name, template);
		}
		return template(context);
	};
}
