// @ts-check
import { describe, expect, it } from 'vitest';
import { ledgerDifferences } from './ledger.js';

const booked = { installs: 2, cliRuns: 3, checks: 1, builds: 2, servers: 2, browsers: 1, spawns: 20, fullCostHashes: 6, waitSeconds: 0 };

describe('ledgerDifferences', () => {
	it('is empty when the counts are the ledger line', () => {
		expect(ledgerDifferences({ ...booked }, booked, true)).toEqual([]);
	});

	it('names a build added without the ledger saying so, whether or not the whole file ran', () => {
		for (const whole of [true, false]) {
			expect(ledgerDifferences({ ...booked, builds: 3, spawns: 21 }, booked, whole)).toEqual([
				'builds: 3 counted, the ledger says 2',
				'spawns: 21 counted, the ledger says 20'
			]);
		}
	});

	it('names a cost that went away only when the whole file ran (a filtered run costs less)', () => {
		expect(ledgerDifferences({ ...booked, servers: 1 }, booked, true)).toEqual(['servers: 1 counted, the ledger says 2']);
		expect(ledgerDifferences({ ...booked, servers: 1 }, booked, false)).toEqual([]);
	});

	it('asks for a line for a file the ledger lacks, once it ran whole', () => {
		expect(ledgerDifferences(booked, undefined, true)).toEqual(['the file has no line in e2e/ledger.json']);
		expect(ledgerDifferences(booked, undefined, false)).toEqual([]);
	});
});
