/** src/auth.ts as Auth.js's SvelteKit guide writes it (authjs.dev/reference/sveltekit), with a jwt callback. */
export const GUIDE_CONFIG = `import { SvelteKitAuth } from "@auth/sveltekit"
import GitHub from "@auth/sveltekit/providers/github"

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [GitHub],
  trustHost: true,
  callbacks: {
    jwt({ token, profile }) {
      if (profile) token.login = profile.login
      return token
    }
  }
})
`;

/**
 * The other files of an app set up as Auth.js's SvelteKit guide does, app-relative path → text:
 * the handle re-exported by the hooks, the session in the root layout's data, the sign-in action
 * page, and a page with its SignIn / SignOut components.
 */
export const GUIDE_FILES: Record<string, string> = {
	'src/auth.ts': GUIDE_CONFIG,
	'src/hooks.server.ts': 'export { handle } from "./auth"\n',
	'src/routes/+layout.server.ts':
		'import type { LayoutServerLoad } from "./$types"\n\nexport const load: LayoutServerLoad = async (event) => {\n  const session = await event.locals.auth()\n  return { session }\n}\n',
	'src/routes/signin/+page.server.ts': 'import { signIn } from "../../auth"\nimport type { Actions } from "./$types"\nexport const actions: Actions = { default: signIn }\n',
	'src/routes/+page.svelte':
		'<script lang="ts">\n  import { SignIn, SignOut } from "@auth/sveltekit/components"\n  import { page } from "$app/state"\n</script>\n\n{#if page.data.session}\n  <p>Signed in as {page.data.session.user?.email}</p>\n  <SignOut />\n{:else}\n  <SignIn provider="github" signInPage="signin" />\n{/if}\n'
};

/**
 * src/auth.ts of an Auth.js app with database sessions through `@auth/pg-adapter`, as the
 * adapter's page (authjs.dev/getting-started/adapters/pg) sets it up, its pool given the
 * `DATABASE_URL` of SvelteKit's private environment.
 */
export const GUIDE_PG_CONFIG = `import { SvelteKitAuth } from "@auth/sveltekit"
import GitHub from "@auth/sveltekit/providers/github"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { env } from "$env/dynamic/private"

const pool = new pg.Pool({ connectionString: env.DATABASE_URL })

export const { handle, signIn, signOut } = SvelteKitAuth({
  adapter: PostgresAdapter(pool),
  providers: [GitHub],
  trustHost: true
})
`;

/**
 * src/auth.ts of an Auth.js app whose provider is an OpenID Connect provider written inline, as
 * Auth.js documents one it has no module for (authjs.dev/guides/configuring-oauth-providers), its
 * settings from SvelteKit's private environment.
 */
export const GUIDE_OIDC_CONFIG = `import { SvelteKitAuth } from "@auth/sveltekit"
import { env } from "$env/dynamic/private"

export const { handle, signIn, signOut } = SvelteKitAuth({
  providers: [
    {
      id: "idp",
      name: "Dev IdP",
      type: "oidc",
      issuer: env.AUTH_IDP_ISSUER,
      clientId: env.AUTH_IDP_ID,
      clientSecret: env.AUTH_IDP_SECRET
    }
  ],
  trustHost: true
})
`;

/**
 * The Credentials provider as Auth.js's guide sets it up (authjs.dev/getting-started/authentication/credentials):
 * the app's own users (`getUserFromDb`, {@link GUIDE_USERS}), refusing with a `CredentialsSignin`
 * subclass of its own code, declared at the top of src/auth.ts.
 */
export const GUIDE_CREDENTIALS = {
	imports: 'import Credentials from "@auth/sveltekit/providers/credentials"\nimport { CredentialsSignin } from "@auth/sveltekit"\nimport { getUserFromDb } from "$lib/server/users"\n',
	declarations: 'class InvalidLoginError extends CredentialsSignin {\n  code = "Invalid identifier or password"\n}\n',
	provider: `Credentials({
      credentials: {
        email: {},
        password: {},
      },
      authorize: async (credentials) => {
        const user = await getUserFromDb(credentials.email as string, credentials.password as string)
        if (!user) {
          throw new InvalidLoginError()
        }
        return user
      },
    })`
};

/**
 * The app's own users, as an Auth.js app with Credentials keeps them (Auth.js stores none): a JSON
 * file of scrypt hashes, `saveUser` for its /register page and `getUserFromDb` for `authorize`.
 */
export const GUIDE_USERS = `import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { randomBytes, randomUUID, scryptSync, timingSafeEqual } from "node:crypto"

interface StoredUser { id: string; email: string; name: string; salt: string; hash: string }

const FILE = "users.json"
const load = (): StoredUser[] => (existsSync(FILE) ? JSON.parse(readFileSync(FILE, "utf8")) : [])

export function saveUser(email: string, name: string, password: string) {
  const salt = randomBytes(16).toString("hex")
  const users = load()
  users.push({ id: randomUUID(), email, name, salt, hash: scryptSync(password, salt, 32).toString("hex") })
  writeFileSync(FILE, JSON.stringify(users))
}

export async function getUserFromDb(email: string, password: string) {
  const user = load().find((stored) => stored.email === email)
  if (!user || !timingSafeEqual(scryptSync(password, user.salt, 32), Buffer.from(user.hash, "hex"))) return null
  return { id: user.id, email: user.email, name: user.name }
}
`;
