import { MemoryAdapter } from '../server/auth/adapters/memory.js';
import type { Adapter } from '../server/auth/adapters/types.js';
import type { SvelteKitAuthConfig } from '../server/auth/config.js';
import { SvelteKitAuth } from '../server/auth/kit.js';
import { smtpMailer } from '../server/auth/email/smtp.js';
import { authorizeWithPassword } from '../server/auth/passwords/accounts.js';
import Credentials from '../server/auth/providers/credentials.js';
import { memoryRateLimitStore } from '../server/auth/limits/rate-limit.js';
import type { Inbox } from './smtp.js';

/**
 * An app with password accounts as the generated `src/auth.ts` sets one up: the credentials
 * provider over `adapter` (a memory one by default), rate limits in memory, trusted host, and
 * mail sent by SMTP to `inbox`. `config` sets the secret and logger, and overrides the rest.
 */
export function passwordApp(inbox: Inbox, config: Pick<SvelteKitAuthConfig, 'secret' | 'logger'> & Partial<SvelteKitAuthConfig>, adapter: Adapter = MemoryAdapter()) {
	const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter as never, fields) });
	const auth = SvelteKitAuth({
		adapter,
		trustHost: true,
		providers: [credentials],
		rateLimit: { store: memoryRateLimitStore() },
		mailer: smtpMailer({ server: inbox.url, from: 'Example <no-reply@example.com>' }),
		...config
	});
	return { adapter, auth };
}
