import { afterAll, describe, expect, it } from 'vitest';
import { describeAdapterContract } from '../../../test/adapter-contract.js';
import { prismaScratch, type PrismaScratch } from '../../../test/prisma.js';
import type { PrismaProvider } from './prisma.js';
import { PrismaAdapter } from './prisma.js';

// The contract suite, on a client `prisma generate` made from the models create-auth adds to an
// app's schema.prisma, over SQLite and PostgreSQL.
for (const provider of ['sqlite', 'postgresql'] as const satisfies PrismaProvider[]) {
	describeAdapterContract(`PrismaAdapter (${provider})`, async () => {
		const scratch = await prismaScratch(provider);
		return {
			adapter: PrismaAdapter(scratch.client, { provider }),
			twin: () => PrismaAdapter(scratch.open(), { provider }),
			userCount: async () => Number((await scratch.sql('SELECT count(*) AS count FROM auth_users'))[0]!.count),
			close: () => scratch.close()
		};
	});
}

describe('PrismaAdapter', () => {
	const scratches: PrismaScratch[] = [];
	afterAll(() => Promise.all(scratches.map((scratch) => scratch.close())));

	for (const provider of ['sqlite', 'postgresql'] as const) {
		it(`writes what the app's own Prisma queries read and compare as DateTime, BigInt and Boolean (${provider})`, async () => {
			const scratch = await prismaScratch(provider);
			scratches.push(scratch);
			const adapter = PrismaAdapter(scratch.client, { provider });
			const expires = new Date('2030-01-02T03:04:05.678Z');
			await adapter.createUser({ id: 'u1', email: 'a@example.com', emailVerified: expires });
			await adapter.createSession({ sessionToken: 's1', userId: 'u1', expires, createdAt: new Date('2029-01-01T00:00:00.000Z') });
			await adapter.linkAccount({ userId: 'u1', type: 'oidc', provider: 'idp', providerAccountId: 'sub-1', expires_at: 1_900_000_000 });
			await adapter.createAuthenticator({
				credentialID: 'cred-1', userId: 'u1', providerAccountId: 'cred-1', credentialPublicKey: 'key',
				counter: 3, credentialDeviceType: 'multiDevice', credentialBackedUp: true, transports: 'internal'
			});
			const models = scratch.client as unknown as Record<string, { findMany(args?: object): Promise<Record<string, unknown>[]> }>;
			// Through the models the app's client has: the auth tables are ordinary Prisma models.
			expect(await models.authSession!.findMany({ where: { expires: { gt: new Date('2029-12-31T00:00:00.000Z') } } })).toEqual([
				{ sessionToken: 's1', userId: 'u1', expires, createdAt: new Date('2029-01-01T00:00:00.000Z'), userAgent: null, ipAddress: null }
			]);
			expect(await models.authSession!.findMany({ where: { expires: { lt: new Date('2029-12-31T00:00:00.000Z') } } })).toEqual([]);
			expect(await models.authUser!.findMany()).toEqual([{ id: 'u1', name: null, email: 'a@example.com', emailVerified: expires, image: null, sessionVersion: 0 }]);
			expect((await models.authAccount!.findMany())[0]).toMatchObject({ provider: 'idp', providerAccountId: 'sub-1', expires_at: 1_900_000_000n });
			expect((await models.authAuthenticator!.findMany())[0]).toMatchObject({ counter: 3n, credentialBackedUp: true });
			// And what the app writes through them, the adapter reads back.
			const update = models.authUser as unknown as { update(args: object): Promise<unknown> };
			await update.update({ where: { id: 'u1' }, data: { emailVerified: new Date('2031-05-06T07:08:09.010Z'), sessionVersion: 2 } });
			expect(await adapter.getUser('u1')).toMatchObject({ emailVerified: new Date('2031-05-06T07:08:09.010Z'), sessionVersion: 2 });
			expect(await adapter.getAccount('sub-1', 'idp')).toMatchObject({ expires_at: 1_900_000_000 });
			expect(await adapter.getAuthenticator('cred-1')).toMatchObject({ counter: 3, credentialBackedUp: true });
		});
	}
});
