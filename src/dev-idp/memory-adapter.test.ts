import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from './memory-adapter.js';

describe('createMemoryAdapter', () => {
	it('keeps each model apart, and each factory (each dev IdP) apart', async () => {
		const factory = createMemoryAdapter();
		await factory('AccessToken').upsert('id', { kind: 'AccessToken' });
		expect(await factory('AccessToken').find('id')).toEqual({ kind: 'AccessToken' });
		expect(await factory('RefreshToken').find('id')).toBeUndefined();
		expect(await createMemoryAdapter()('AccessToken').find('id')).toBeUndefined();
	});

	it('forgets an entry once expiresIn seconds have passed', async () => {
		let now = 1_000_000;
		const adapter = createMemoryAdapter(() => now)('Session');
		await adapter.upsert('s', { uid: 'u' }, 60);
		now += 59_999;
		expect(await adapter.find('s')).toEqual({ uid: 'u' });
		expect(await adapter.findByUid('u')).toEqual({ uid: 'u' });
		now += 1;
		expect(await adapter.find('s')).toBeUndefined();
		expect(await adapter.findByUid('u')).toBeUndefined();
	});

	it('marks a consumed entry with the time in epoch seconds', async () => {
		const adapter = createMemoryAdapter(() => 1_700_000_000_500)('AuthorizationCode');
		await adapter.upsert('code', { grantId: 'g' }, 60);
		await adapter.consume('code');
		expect(await adapter.find('code')).toEqual({ grantId: 'g', consumed: 1_700_000_000 });
	});

	it('revokes every entry of one grant and destroys single entries', async () => {
		const adapter = createMemoryAdapter()('RefreshToken');
		await adapter.upsert('a', { grantId: 'g1' });
		await adapter.upsert('b', { grantId: 'g1' });
		await adapter.upsert('c', { grantId: 'g2' });
		await adapter.revokeByGrantId('g1');
		expect([await adapter.find('a'), await adapter.find('b')]).toEqual([undefined, undefined]);
		expect(await adapter.find('c')).toEqual({ grantId: 'g2' });
		await adapter.destroy('c');
		expect(await adapter.find('c')).toBeUndefined();
	});

	it('finds a device code by its user code', async () => {
		const adapter = createMemoryAdapter()('DeviceCode');
		await adapter.upsert('d', { userCode: 'ABCD-EFGH' });
		expect(await adapter.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' });
		expect(await adapter.findByUserCode('nope')).toBeUndefined();
	});
});
