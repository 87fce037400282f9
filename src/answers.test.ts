import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS, equivalentCommand, RATE_LIMIT_STORES, splitList, validateAnswers, type Answers } from './answers.js';
import { CliError } from './errors.js';

const codeOf = (answers: Partial<Answers>) => {
	try {
		validateAnswers({ ...DEFAULT_ANSWERS, ...answers });
		return 'ok';
	} catch (error) {
		return error instanceof CliError ? error.code : error;
	}
};

describe('validateAnswers', () => {
	it.each([
		[{ providers: ['nope'] }, 'E_UNKNOWN_PROVIDER'],
		[{ providers: [] }, 'E_UNKNOWN_PROVIDER'],
		[{ strategy: 'session' as never }, 'E_UNSUPPORTED_STRATEGY'],
		[{ adapter: 'oracle' as never }, 'E_UNKNOWN_ADAPTER'],
		[{ providers: ['credentials', 'passkey'], adapter: 'hosted-db' as const }, 'E_UNSUPPORTED_ADAPTER'],
		[{ providers: ['credentials', 'passkey'], adapter: 'postgres' as const }, 'ok'],
		[{ protect: ['account'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/signin'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/a?b'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/account', '/admin/'] }, 'ok'],
		[{ protect: [] }, 'ok'],
		[{ rateLimit: 'redis' as const }, 'ok'],
		[{ rateLimit: 'memory' as const }, 'ok'],
		[{ rateLimit: 'valkey' as never }, 'E_UNKNOWN_RATE_LIMIT_STORE'],
		[{ rateLimit: 'Redis' as never }, 'E_UNKNOWN_RATE_LIMIT_STORE'],
		[{ rateLimit: '' as never }, 'E_UNKNOWN_RATE_LIMIT_STORE'],
		[{ previous: ['better-auth' as const] }, 'ok'],
		[{ previous: ['lucia' as const] }, 'ok'],
		[{ previous: [] }, 'ok'],
		[{ previous: ['better-auth' as const, 'better-auth' as const] }, 'E_SWITCH_UNSUPPORTED'],
		[{ previous: ['passport' as never] }, 'E_SWITCH_UNSUPPORTED']
	])('%j → %s', (answers, code) => {
		expect(codeOf(answers)).toBe(code);
	});

	it('names the stores in the hint of an unknown rate-limit store', () => {
		expect(() => validateAnswers({ ...DEFAULT_ANSWERS, rateLimit: 'memcached' as never })).toThrow(
			expect.objectContaining({
				code: 'E_UNKNOWN_RATE_LIMIT_STORE',
				message: 'Unknown rate-limit store "memcached".',
				hint: expect.stringMatching(/memory .*redis .*REDIS_URL.*d1 /)
			})
		);
		expect(RATE_LIMIT_STORES).toEqual(['memory', 'redis', 'd1']);
		expect(DEFAULT_ANSWERS.rateLimit).toBe('memory');
	});

	it('drops trailing slashes from prefixes', () => {
		expect(validateAnswers({ ...DEFAULT_ANSWERS, protect: ['/admin//'] }).protect).toEqual(['/admin']);
	});
});

describe('splitList', () => {
	it('trims, drops empties and duplicates', () => {
		expect(splitList(' credentials, ,credentials,x ')).toEqual(['credentials', 'x']);
	});
});

describe('equivalentCommand', () => {
	it('repeats every answer as a flag', () => {
		expect(equivalentCommand(DEFAULT_ANSWERS)).toBe(
			'npx create-auth --yes --providers credentials --strategy jwt --adapter sqlite --protect /account --rate-limit memory'
		);
		expect(equivalentCommand({ ...DEFAULT_ANSWERS, rateLimit: 'redis' })).toMatch(/ --rate-limit redis$/);
	});
});
