import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { parseManifest, serializeManifest, type Manifest } from './manifest.js';

const manifest: Manifest = {
	version: '0.1.0',
	answers: DEFAULT_ANSWERS,
	files: { 'src/auth.ts': { strategy: 'merge', content: 'x\n' }, '.env': { strategy: 'patch', edits: ['AUTH_SECRET'] } },
	pending: []
};

describe('parseManifest', () => {
	it('reads back what serializeManifest wrote', () => {
		expect(parseManifest(serializeManifest(manifest))).toEqual(manifest);
	});

	it.each([
		['absent', undefined],
		['empty', ''],
		['not JSON (a merge conflict left in it)', '<<<<<<< HEAD\n{}\n'],
		['JSON of another shape', '{"name":"x"}'],
		['a JSON string', '"0.1.0"'],
		['without answers', '{"version":"0.1.0","files":{}}']
	])('treats a manifest that is %s as no manifest, never throwing', (_, text) => {
		expect(parseManifest(text)).toBeUndefined();
	});

	it('reads the answers of a manifest written before --rate-limit existed as the memory store', () => {
		const { rateLimit: _, ...olderAnswers } = DEFAULT_ANSWERS;
		const older = JSON.stringify({ ...manifest, answers: olderAnswers });
		expect(parseManifest(older)?.answers).toEqual({ ...olderAnswers, rateLimit: 'memory' });
		const redis = serializeManifest({ ...manifest, answers: { ...DEFAULT_ANSWERS, rateLimit: 'redis' } });
		expect(parseManifest(redis)?.answers.rateLimit).toBe('redis');
	});

	it('defaults a missing pending list', () => {
		const { pending: _, ...withoutPending } = manifest;
		expect(parseManifest(JSON.stringify(withoutPending))?.pending).toEqual([]);
	});
});
