import { MemoryAdapter } from '../server/auth/adapters/memory.js';
import type { Adapter } from '../server/auth/adapters/types.js';
import type { SvelteKitAuthConfig } from '../server/auth/config.js';
import { SvelteKitAuth } from '../server/auth/kit.js';
import type { Mailer } from '../server/auth/email/mail.js';
import { smtpMailer } from '../server/auth/email/smtp.js';
import { authorizeWithPassword } from '../server/auth/passwords/accounts.js';
import Credentials from '../server/auth/providers/credentials.js';
import { memoryRateLimitStore } from '../server/auth/limits/rate-limit.js';
import type { Inbox } from './smtp.js';

/**
 * An app with password accounts as the generated `src/auth.ts` sets one up: the credentials
 * provider over `adapter` (a memory one by default), rate limits in memory, trusted host, and
 * mail sent by SMTP to `inbox`. `config` sets the secret and logger, and overrides the rest.
 * `delivered()` resolves once every mail its mailer was given so far has reached the inbox or
 * failed: security notices are sent without waiting, and one still on its way when a test ends
 * would be the next test's `inbox.next`.
 */
export function passwordApp(inbox: Inbox, config: Pick<SvelteKitAuthConfig, 'secret' | 'logger'> & Partial<SvelteKitAuthConfig>, adapter: Adapter = MemoryAdapter()) {
	const credentials = Credentials({ credentials: { email: {}, password: {} }, authorize: (fields) => authorizeWithPassword(adapter as never, fields) });
	const smtp = smtpMailer({ server: inbox.url, from: 'Example <no-reply@example.com>' });
	const sending: Promise<void>[] = [];
	const mailer: Mailer = (message) => {
		const sent = smtp(message);
		sending.push(sent);
		return sent;
	};
	const auth = SvelteKitAuth({ adapter, trustHost: true, providers: [credentials], rateLimit: { store: memoryRateLimitStore() }, mailer, ...config });
	return { adapter, auth, delivered: () => Promise.allSettled(sending).then(() => undefined) };
}
