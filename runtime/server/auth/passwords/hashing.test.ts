import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryAdapter } from '../adapters/memory.js';
import { RateLimited } from '../errors.js';

// scrypt is replaced by one the test finishes by hand, so what runs at once can be counted;
// the machine is said to have 4 cores.
const pending: Array<() => void> = [];
let running = 0;
let mostAtOnce = 0;
vi.mock('node:os', async (original) => ({ ...(await original<typeof import('node:os')>()), availableParallelism: () => 4 }));
vi.mock('node:crypto', async (original) => {
	const crypto = await original<typeof import('node:crypto')>();
	return {
		...crypto,
		scrypt: (_password: string, _salt: Buffer, length: number, _options: unknown, done: (err: Error | null, key: Buffer) => void) => {
			running++;
			mostAtOnce = Math.max(mostAtOnce, running);
			pending.push(() => {
				running--;
				done(null, Buffer.alloc(length));
			});
		}
	};
});
const { configurePasswordHashing, hashPassword } = await import('./hashing.js');
const { authorizeWithPassword } = await import('./accounts.js');

/** Lets the queue hand the next hashes to scrypt. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
async function finishAll() {
	while (pending.length > 0) {
		pending.shift()!();
		await settle();
	}
}

beforeEach(async () => {
	await finishAll();
	mostAtOnce = 0;
});

describe('the password-hashing queue', () => {
	it('runs one less than the cores at once by default (3 of 4), the rest waiting their turn', async () => {
		const hashes = Array.from({ length: 10 }, () => hashPassword('correct horse battery'));
		await settle();
		expect(running).toBe(3);
		await finishAll();
		expect((await Promise.all(hashes)).every((hash) => hash.startsWith('scrypt$'))).toBe(true);
		expect(mostAtOnce).toBe(3);
	});

	it('refuses at once, with RateLimited and a 5 s wait, what would wait beyond the bound', async () => {
		configurePasswordHashing({ concurrency: 1, maxWaiting: 2 });
		const attempts = Array.from({ length: 5 }, () => hashPassword('correct horse battery').catch((err: unknown) => err));
		await settle();
		expect(running).toBe(1);
		await finishAll();
		const outcomes = await Promise.all(attempts);
		const refused = outcomes.filter((outcome) => outcome instanceof RateLimited);
		expect(refused).toHaveLength(2);
		expect((refused[0] as RateLimited).retryAfter).toBe(5);
		expect(outcomes.filter((outcome) => typeof outcome === 'string')).toHaveLength(3);
	});

	it('refuses a sign-in with a full queue with RateLimited, not as a wrong password', async () => {
		configurePasswordHashing({ concurrency: 1, maxWaiting: 0 });
		const first = authorizeWithPassword(MemoryAdapter(), { email: 'ada@example.com', password: 'whatever1' });
		await settle();
		await expect(authorizeWithPassword(MemoryAdapter(), { email: 'ada@example.com', password: 'whatever1' })).rejects.toBeInstanceOf(RateLimited);
		await finishAll();
		expect(await first).toBeNull();
	});

	it('never hashes a sign-in password over 1024 characters', async () => {
		configurePasswordHashing({ concurrency: 1, maxWaiting: 16 });
		const adapter = MemoryAdapter();
		expect(await authorizeWithPassword(adapter, { email: 'ada@example.com', password: 'x'.repeat(1025) })).toBeNull();
		expect(await authorizeWithPassword(adapter, { email: 'ada@example.com', password: '😀'.repeat(1025) })).toBeNull();
		expect(running).toBe(0);
		const atLimit = authorizeWithPassword(adapter, { email: 'ada@example.com', password: '😀'.repeat(1024) });
		await settle();
		expect(running).toBe(1);
		await finishAll();
		expect(await atLimit).toBeNull();
	});
});
