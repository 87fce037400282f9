// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config.js';
import { need } from '../adapters/methods.js';

/** Unanswered challenges one client address may hold at once in one process (the options route answers 429 beyond). */
export const MAX_OPEN_CHALLENGES_PER_CLIENT = 200;

/** Expired rows one issue deletes at most: more than it adds, so a backlog drains, and a bounded wait. */
const SWEEP_BATCH = 16;

/** The verification-token identifier of `provider`'s challenges: no email flow's (an address, `password-reset:…`, `verify-email:…`). */
const identifierOf = (provider: string) => `webauthn-challenge:${provider}`;

/** What is stored of a challenge: its SHA-256, hex (the challenge is 32 random bytes: nothing to guess from it). */
const tokenOf = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

/** A challenge this process issued and has not seen used: its row, when it expires (epoch ms), and for whom. */
interface OpenChallenge {
	identifier: string;
	token: string;
	expires: number;
	client: string;
}

/** The open challenges of one adapter in this process: oldest first (all live equally long), and a count per client. */
interface OpenChallenges {
	byToken: Map<string, OpenChallenge>;
	perClient: Map<string, number>;
}

/** Per adapter object, so two configs over one store share the count (the function form of the config). */
const openByAdapter = new WeakMap<object, OpenChallenges>();

/** The open challenges of the config's adapter in this process. */
function openChallenges(config: ResolvedConfig): OpenChallenges {
	const key = config.adapter as object;
	let open = openByAdapter.get(key);
	if (!open) openByAdapter.set(key, (open = { byToken: new Map(), perClient: new Map() }));
	return open;
}

/** Drops a challenge from the open ones (used, or its row deleted), giving its client's count back. */
function forget(open: OpenChallenges, challenge: OpenChallenge): void {
	open.byToken.delete(challenge.token);
	const count = (open.perClient.get(challenge.client) ?? 1) - 1;
	if (count > 0) open.perClient.set(challenge.client, count);
	else open.perClient.delete(challenge.client);
}

/**
 * Deletes the rows of up to {@link SWEEP_BATCH} expired, unanswered challenges; a failure is
 * logged, never thrown (the row stays, as an unused email link's would).
 */
async function sweep(config: ResolvedConfig, open: OpenChallenges, now: number): Promise<void> {
	const due: OpenChallenge[] = [];
	for (const challenge of open.byToken.values()) {
		if (challenge.expires > now || due.length === SWEEP_BATCH) break;
		due.push(challenge);
	}
	for (const challenge of due) forget(open, challenge);
	const use = need(config, 'useVerificationToken');
	await Promise.all(
		due.map(({ identifier, token }) =>
			Promise.resolve()
				.then(() => use({ identifier, token }))
				.catch((err) => config.logger.error(err as Error))
		)
	);
}

/**
 * Stores a challenge just issued for `provider`: SHA-256 of `challenge`, identifier
 * `webauthn-challenge:<provider id>`, expiring `maxAge` seconds from now; and deletes expired
 * rows of unanswered ones meanwhile.
 *
 * Ceremony challenges used once, server-side (W3C WebAuthn Level 3 §13.4.3, "Cryptographic
 * Challenges"; OWASP ASVS 5.0 V6.7.2). The ceremony cookie proves the server issued a
 * challenge, but a captured request (cookie and response) could be posted again within the
 * cookie's 5 minutes, and `@simplewebauthn/server` only compares the challenge with the one it
 * is given. So each issued challenge is also stored as a verification token (the adapter's
 * `createVerificationToken`) and its use takes it back (`useVerificationToken`, which deletes and
 * returns it once, atomically on every adapter passkeys run on): a second use finds nothing.
 *
 * The options route is unauthenticated, so what it writes is bounded: one client address holds
 * at most {@link MAX_OPEN_CHALLENGES_PER_CLIENT} unanswered challenges per process, and the rows
 * of ceremonies never answered are deleted by the process that issued them once they expire
 * (the adapter contract has no "delete expired" method; `useVerificationToken` deletes an
 * expired row too). Rows a process issued in its last minutes before it stopped stay behind.
 * @param client the client address (undefined where the platform has none: those share one count)
 * @returns false, storing nothing, when `client` holds {@link MAX_OPEN_CHALLENGES_PER_CLIENT} already
 * @throws {AdapterError} storing it failed; {@link MissingAdapter} the adapter has no verification tokens.
 * @see create-auth docs/api.md#passkey
 */
export async function issueChallenge(config: ResolvedConfig, provider: string, challenge: string, maxAge: number, client: string | undefined): Promise<boolean> {
	const open = openChallenges(config);
	const now = Date.now();
	const swept = sweep(config, open, now);
	const who = client ?? '';
	const held = open.perClient.get(who) ?? 0;
	if (held >= MAX_OPEN_CHALLENGES_PER_CLIENT) {
		await swept;
		return false;
	}
	const stored = { identifier: identifierOf(provider), token: tokenOf(challenge), expires: now + maxAge * 1000, client: who };
	open.byToken.set(stored.token, stored);
	open.perClient.set(who, held + 1);
	try {
		await need(config, 'createVerificationToken')({ identifier: stored.identifier, token: stored.token, expires: new Date(stored.expires) });
	} catch (err) {
		forget(open, stored);
		throw err;
	} finally {
		await swept;
	}
	return true;
}

/**
 * Uses `provider`'s `challenge`: true the first time within its lifetime, false when it was used
 * already, expired or never stored here (its row is gone either way).
 * @throws {AdapterError} the adapter failed; {@link MissingAdapter} it has no verification tokens.
 */
export async function useChallenge(config: ResolvedConfig, provider: string, challenge: string): Promise<boolean> {
	const open = openChallenges(config);
	const token = tokenOf(challenge);
	const mine = open.byToken.get(token);
	if (mine) forget(open, mine);
	const used = await need(config, 'useVerificationToken')({ identifier: identifierOf(provider), token });
	return !!used && used.expires.getTime() > Date.now();
}
