/** An environment variable a descriptor's part of `src/auth.ts` reads. */
export interface ProviderEnvVar {
	key: string;
	/** One sentence: the comment in `.env` / `.env.example`, the `description` in `src/env.ts`. */
	description: string;
	/** What a first run writes to `.env`; default empty, for the user to fill in. */
	value?: string;
	/** What `.env.example` shows (never a secret); default empty. */
	example?: string;
	/** A feature's variable: what `create-auth doctor` says to do when it is empty or missing. */
	hint?: string;
}

/** One import `src/auth.ts` needs: `import <names> from '<lib module>'`. */
export interface ProviderImport {
	/** What the import statement binds: `Idp`, `{ authorizeWithPassword }`, `Idp, { withoutWwwAuthenticate }`. */
	names: string;
	/** The lib module, without extension: `server/auth/providers/idp`. */
	module: string;
}

/**
 * What an adapter may be asked to store beyond users, accounts and sessions: `authenticators`,
 * the passkeys' table (WebAuthn credentials); `two-factor`, the second factors' and recovery
 * codes' tables. Adapters list what they support (`AdapterScaffold.supports`), descriptors what
 * they need ({@link Descriptor.needs}).
 */
/**
 * What an adapter can store beyond users, accounts and sessions: passkeys, second factors, and
 * rate-limit counters (`rate-limits`: the `--rate-limit d1` store lives in the adapter's database).
 */
export type AdapterCapability = 'authenticators' | 'two-factor' | 'rate-limits';

/** A need of a descriptor on the adapter, with the words the refusal uses. */
export interface AdapterNeed {
	capability: AdapterCapability;
	/** What cannot be done without it, finishing "The <adapter> adapter cannot …": `store passkeys: its schema has no authenticator table`. */
	why: string;
}

/** A structural edit of `src/app.d.ts` a descriptor needs (after `App.Locals.auth` and `App.PageData.session`). */
export interface AppTypesEdit {
	/** What the manifest records of it once applied: `['Session: idp token fields', …]`. */
	records: string[];
	/**
	 * Applies it to the text of `app.d.ts`; `lib` gives a lib module's specifier in this app
	 * (`auth/types` → `$lib/auth/types`). Returns the text unchanged and a manual step for a
	 * shape it does not know.
	 */
	apply(content: string, lib: (module: string) => string): { content: string; pending?: string };
}

/**
 * What the CLI knows about one part of an app — a provider or a feature — and nothing else
 * does: the rest (endpoints, flows) lives in its runtime module(s).
 *
 * Its page sections are Handlebars partials at `templates/<kind>/<id>/<page>/<slot>.hbs`
 * (`kind` = `providers` or `features`), listed in {@link sections} as `<page>/<slot>`; the page
 * templates render each slot's sections of the chosen descriptors in registry order
 * (`{{#each sections.[signin/fields]}}{{> (lookup this 'partial') @root}}{{/each}}`).
 */
export interface Descriptor {
	/** The id, the same everywhere: `--providers`, runtime module, templates, docs. */
	id: string;
	/** Imports its part of `src/auth.ts` needs (sorted by module with every other descriptor's). */
	imports: ProviderImport[];
	/** Environment variables its part of `src/auth.ts` reads, in the order it reads them; left empty in `.env`. */
	env: ProviderEnvVar[];
	/** `src/routes/…` pages it needs, as template paths under `templates/routes/`; a page two descriptors name is written once. */
	routes: string[];
	/**
	 * Lib modules (without extension) its partials and `appTypes` edits import besides
	 * {@link imports}': `auth/passkey` for the passkey pages, `auth/types` for idp's token types.
	 * With `imports`, the entry modules of the runtime an app is vendored (see `runtimeEntries`).
	 */
	entries?: string[];
	/** Packages its runtime modules import, added to the app's `dependencies` (its modules are vendored by imports: see `runtimeEntries`). */
	dependencies?: string[];
	/** Their types, added to `devDependencies`. */
	devDependencies?: string[];
	/** Names `src/auth.ts` imports from the runtime's entry (`server/auth/index`) beside `SvelteKitAuth`: `refreshAccessToken`. */
	authImports?: string[];
	/** Names `src/auth.ts` exports from `SvelteKitAuth(…)` for its pages, after `handle, signIn, signOut`: `signUp`, `emailLink`. */
	exports?: string[];
	/** What it needs of the adapter; answers with an adapter lacking it are refused (`E_UNSUPPORTED_ADAPTER`). */
	needs?: AdapterNeed[];
	/** Edits of `src/app.d.ts` beyond every app's. */
	appTypes?: AppTypesEdit[];
	/** Page sections it fills, as `<page>/<slot>` (`signin/fields`): partials at `templates/<kind>/<id>/<page>/<slot>.hbs`. */
	sections?: string[];
	/** Its sign-in section has an email field (passkeys are offered in the first one's autofill). */
	emailField?: true;
	/** It offers sign-in in the autofill of the sign-in page's first email field. */
	emailAutofill?: true;
	/**
	 * Some of the app's password accounts are keyed by a username, not an address (users carried
	 * over from Lucia): the password sign-in's address field also takes a username.
	 */
	usernames?: true;
	/**
	 * What it builds on the app's trusted origin (`AUTH_URL`, or the request's host with
	 * `AUTH_TRUST_HOST`), for `doctor`'s `trusted-origin` check: `links` names them
	 * (`OAuth redirect URIs`), `flow` what stops without one (`OAuth sign-in`); `callback`:
	 * the app registers `<origin><base>/auth/callback/<id>` with the provider (`callback-url:<id>`).
	 */
	trustedOrigin?: { links: string; flow: string; callback?: true };
	/** Steps printed after a run that added it; `base` is the app's `paths.base` as shown (`''`, `/base`, `<paths.base>`). */
	nextSteps?(base: string): string[];
}

/**
 * A provider: a {@link Descriptor} the user chooses with `--providers`, with its prompt label.
 * Its config is the template `templates/providers/<id>.ts.hbs`: a `const <id> = …;`
 * declaration, with a doc comment, that `src/auth.ts` lists in its `providers` array.
 */
export interface ProviderScaffold extends Descriptor {
	/** Label shown in the interactive prompt. */
	label: string;
	/** Short hint shown next to the label in the prompt. */
	hint: string;
	/**
	 * The kind of its runtime provider: `oauth` for redirect-based ones (OAuth 2 / OpenID
	 * Connect; see `oauthProvider`), `credentials`, `email`, `webauthn` (passkeys). The CLI does
	 * not branch on it: the sign-in page leaves the types whose providers have fields of their
	 * own (`signInSectionTypes`) out of its list of provider buttons.
	 */
	type: 'credentials' | 'oauth' | 'email' | 'webauthn';
	/** For `oauth` providers: how to try it with nothing registered, printed among the next steps. */
	tryLocally?: string;
}

/** The answers a feature is chosen by (`Answers` in answers.ts, which imports this module). */
export interface FeatureAnswers {
	rateLimit: string;
	previous?: readonly string[];
	twoFactor?: boolean;
}

/**
 * A feature: a {@link Descriptor} chosen by an answer other than the providers (the Redis
 * rate-limit store by `--rate-limit redis`). Its config entries are the partial
 * `templates/features/<id>/auth/config.hbs` when it lists `auth/config` in its sections.
 */
export interface FeatureDescriptor extends Descriptor {
	/** What it is, in a sentence's words: `the rate-limit store`. */
	label: string;
	/** Whether these answers choose it. */
	chosen(answers: FeatureAnswers): boolean;
}
