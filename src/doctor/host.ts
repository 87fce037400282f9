import { findAdapter } from '../adapters.js';
import type { Answers } from '../answers.js';
import type { Host } from '../hosts.js';
import type { Check } from './check.js';

/**
 * On a serverless host (Vercel, Netlify, Cloudflare: `Host.serverless`), where an instance's disk
 * and memory last only while it runs, two checks:
 * - `host-storage`: warn when the adapter keeps users in a file (SQLite): each instance has its
 *   own, sign-ups vanish and sessions end when it goes;
 * - `host-rate-limit`: warn when rate limits count in memory: each new instance starts from zero,
 *   so guessing passwords is barely limited.
 * Both ok otherwise; no check elsewhere.
 * @see docs/compatibility.md, "Where it runs"
 */
export function hostChecks(input: { answers: Answers; host?: Host }): Check[] {
	const { host } = input;
	if (!host?.serverless) return [];
	const { answers } = input;
	const adapter = findAdapter(answers.adapter);
	const storage: Check = adapter?.file
		? {
				id: 'host-storage',
				status: 'warn',
				message: `The ${answers.adapter} adapter keeps users in a file (${adapter.file.key}), and on ${host.name} each function instance has its own short-lived disk: sign-ups are lost and sessions end when an instance goes.`,
				hint: 'Use a database server there: PostgreSQL or MySQL (docs/compatibility.md of create-auth, "Where it runs").'
			}
		: { id: 'host-storage', status: 'ok', message: `Users live in ${answers.adapter}'s database, which outlasts ${host.name}'s function instances.` };
	const rateLimit: Check =
		answers.rateLimit === 'memory'
			? {
					id: 'host-rate-limit',
					status: 'warn',
					message: `Rate limits count in memory, which on ${host.name} lasts only as long as one function instance: each new one starts from zero, so password guessing is barely limited.`,
					hint: host.cloudflare
						? 'Run npx create-auth regenerate --rate-limit d1 (the counters in the D1 adapter\'s database), then npx create-auth migrate.'
						: 'Run npx create-auth regenerate --rate-limit redis, then set REDIS_URL in the settings.'
				}
			: { id: 'host-rate-limit', status: 'ok', message: `Rate limits count in ${answers.rateLimit}, shared by every ${host.name} function instance.` };
	return [storage, rateLimit];
}
