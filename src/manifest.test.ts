import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWERS } from './answers.js';
import { brotliCompressSync, constants } from 'node:zlib';
import { digest, isAsWritten, isManifestText, parseManifest, serializeManifest, type Manifest } from './manifest.js';

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

	it("keeps the merge files' texts compressed in bases, and a runtime file by digest only", () => {
		const page = '<h1>Sign in</h1>\n'.repeat(200);
		const written: Manifest = {
			...manifest,
			files: { ...manifest.files, 'src/routes/signin/+page.svelte': { strategy: 'merge', content: page }, 'src/lib/auth/x.ts': { strategy: 'managed', sha256: digest('x') } }
		};
		const text = serializeManifest(written);
		const stored = JSON.parse(text) as { files: Record<string, object>; bases: string };
		expect(stored.files['src/routes/signin/+page.svelte']).toEqual({ strategy: 'merge' });
		expect(text).not.toContain('Sign in');
		expect(stored.bases.length).toBeLessThan(page.length / 10);
		expect(parseManifest(text)).toEqual(written);
	});

	it.each([
		['bases that are not base64 Brotli', (stored: Record<string, unknown>) => ({ ...stored, bases: 'not brotli' })],
		['no bases for a merge file', ({ bases: _, ...stored }: Record<string, unknown>) => stored],
		['a runtime file with neither digest nor text', (stored: Record<string, unknown>) => ({ ...stored, files: { 'src/lib/auth/x.ts': { strategy: 'managed' } } })]
	])('treats a manifest with %s as no manifest', (_, damage) => {
		const stored = JSON.parse(serializeManifest(manifest)) as Record<string, unknown>;
		expect(parseManifest(JSON.stringify(damage(stored)))).toBeUndefined();
	});

	it('reads a manifest of the older kind, with every text in place', () => {
		const older = { ...manifest, files: { ...manifest.files, 'src/lib/auth/x.ts': { strategy: 'managed', content: 'x' } } };
		expect(parseManifest(JSON.stringify(older))).toEqual(older);
	});

	it('defaults a missing pending list', () => {
		const { pending: _, ...withoutPending } = manifest;
		expect(parseManifest(JSON.stringify(withoutPending))?.pending).toEqual([]);
	});
});

describe('isAsWritten', () => {
	it('compares a runtime file by digest, or by text in a manifest of the older kind, and a merge file by text', () => {
		expect(isAsWritten({ strategy: 'managed', sha256: digest('a\n') }, 'a\n')).toBe(true);
		expect(isAsWritten({ strategy: 'managed', sha256: digest('a\n') }, 'a')).toBe(false);
		expect(isAsWritten({ strategy: 'managed', content: 'a\n' }, 'a\n')).toBe(true);
		expect(isAsWritten({ strategy: 'merge', content: 'a\n' }, 'b\n')).toBe(false);
		expect(isAsWritten({ strategy: 'patch', edits: [] }, '')).toBe(false);
	});
});

describe('isManifestText', () => {
	const page = `${'<p>The same words again, and again.</p>\n'.repeat(50)}<p>The end.</p>\n`;
	const withPage: Manifest = { ...manifest, files: { ...manifest.files, 'src/routes/+page.svelte': { strategy: 'merge', content: page } } };

	it("takes a text whose bases another zlib compressed differently as the manifest's, and nothing else", () => {
		const text = serializeManifest(withPage);
		const stored = JSON.parse(text) as Record<string, unknown>;
		const texts = JSON.stringify({ 'src/auth.ts': 'x\n', 'src/routes/+page.svelte': page });
		const recompressed = { ...stored, bases: brotliCompressSync(texts, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }).toString('base64') };
		expect(recompressed.bases).not.toBe(stored.bases);
		expect(isManifestText(`${JSON.stringify(recompressed, null, 2)}\n`, text)).toBe(true);
		expect(isManifestText(text, text)).toBe(true);
		expect(isManifestText(text, serializeManifest({ ...withPage, files: { ...withPage.files, 'src/auth.ts': { strategy: 'merge', content: 'y\n' } } }))).toBe(false);
		expect(isManifestText(undefined, text)).toBe(false);
		expect(isManifestText('{"bases":"not brotli"}', text)).toBe(false);
	});
});
