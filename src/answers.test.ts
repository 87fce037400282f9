import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS, equivalentCommand, splitList, validateAnswers, type Answers } from './answers.js';
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
		[{ protect: ['account'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/signin'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/a?b'] }, 'E_INVALID_PROTECT'],
		[{ protect: ['/account', '/admin/'] }, 'ok'],
		[{ protect: [] }, 'ok']
	])('%j → %s', (answers, code) => {
		expect(codeOf(answers)).toBe(code);
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
			'npx create-auth --yes --providers credentials --strategy jwt --adapter sqlite --protect /account'
		);
	});
});
