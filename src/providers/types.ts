/** An environment variable a provider's config in `src/auth.ts` reads. */
export interface ProviderEnvVar {
	key: string;
	/** One sentence: the comment in `.env` / `.env.example`, the `description` in `src/env.ts`. */
	description: string;
}

/** One import `src/auth.ts` needs: `import <names> from '<lib module>'`. */
export interface ProviderImport {
	/** What the import statement binds: `Idp`, `{ authorizeWithPassword }`, `Idp, { withoutWwwAuthenticate }`. */
	names: string;
	/** The lib module, without extension: `server/auth/providers/idp`. */
	module: string;
}

/**
 * What the CLI needs to know about one provider id to scaffold it: the rest (endpoints, checks,
 * profile mapping) lives in the runtime's provider module of the same id.
 *
 * Its config is the template `templates/providers/<id>.ts.hbs`: a `const <id> = …;`
 * declaration, with a doc comment, that `src/auth.ts` lists in its `providers` array.
 */
export interface ProviderScaffold {
	/** Provider id, the same everywhere: `--providers`, runtime module, template, docs. */
	id: string;
	/** Label shown in the interactive prompt. */
	label: string;
	/** Short hint shown next to the label in the prompt. */
	hint: string;
	/**
	 * `oauth` for redirect-based providers (OAuth 2 / OpenID Connect): the app registers
	 * `<origin>/auth/callback/<id>`. `credentials` and `email` have fields on the sign-in page,
	 * `webauthn` (passkeys) a button there and a form on the sign-up page.
	 */
	type: 'credentials' | 'oauth' | 'email' | 'webauthn';
	/** Imports its declaration needs. */
	imports: ProviderImport[];
	/** Environment variables its declaration reads, in the order it reads them; left empty in `.env`. */
	env: ProviderEnvVar[];
	/** For `oauth` providers: how to try it with nothing registered, printed among the next steps. */
	tryLocally?: string;
	/** Extra `src/routes/…` pages this provider needs, as template paths under `templates/routes/`. */
	routes: string[];
	/** Runtime files (lib-relative) vendored only with this provider: they import its dependencies. */
	modules?: string[];
	/** Packages its runtime module imports, added to the app's `dependencies`. */
	dependencies?: string[];
	/** Their types, added to `devDependencies`. */
	devDependencies?: string[];
}
