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
