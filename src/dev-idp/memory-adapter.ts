import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

/** One stored model instance; `expiresAt` is epoch milliseconds, absent for no expiry. */
interface Entry {
	payload: AdapterPayload;
	expiresAt?: number;
}

/**
 * An in-memory storage adapter for oidc-provider: sessions, interactions, grants, codes and
 * tokens live in Maps owned by one dev IdP, and die with it.
 *
 * oidc-provider ships an in-memory adapter too, but it is one store for the whole process and
 * it prints a "you MUST change it" warning on every start. Ours is per instance, so several
 * dev IdPs in one test process never see each other's tokens, and a dev tool has no reason to
 * warn about losing state on restart. Lookups by grant, uid or user code scan one model's
 * Map: fine for the handful of entries a development session creates.
 *
 * @param now clock in epoch milliseconds (tests pass a fixed one)
 * @returns the `adapter` option of the Provider configuration
 * @see https://github.com/panva/node-oidc-provider/blob/main/example/my_adapter.js (the interface)
 */
export function createMemoryAdapter(now: () => number = Date.now): AdapterFactory {
	const models = new Map<string, Map<string, Entry>>();
	return (name) => {
		const entries = models.get(name) ?? new Map<string, Entry>();
		models.set(name, entries);
		const live = (id: string): Entry | undefined => {
			const entry = entries.get(id);
			if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) {
				entries.delete(id);
				return undefined;
			}
			return entry;
		};
		const findWhere = (test: (payload: AdapterPayload) => boolean) => {
			for (const [id, entry] of entries) {
				if (test(entry.payload)) return live(id)?.payload;
			}
			return undefined;
		};
		const adapter: Adapter = {
			async upsert(id, payload, expiresIn) {
				entries.set(id, { payload, expiresAt: expiresIn === undefined ? undefined : now() + expiresIn * 1000 });
			},
			async find(id) {
				return live(id)?.payload;
			},
			async findByUid(uid) {
				return findWhere((payload) => payload.uid === uid);
			},
			async findByUserCode(userCode) {
				return findWhere((payload) => payload.userCode === userCode);
			},
			async consume(id) {
				const entry = live(id);
				if (entry) entry.payload.consumed = Math.floor(now() / 1000);
			},
			async destroy(id) {
				entries.delete(id);
			},
			async revokeByGrantId(grantId) {
				for (const [id, entry] of entries) {
					if (entry.payload.grantId === grantId) entries.delete(id);
				}
			}
		};
		return adapter;
	};
}
