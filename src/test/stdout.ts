import { afterEach, beforeEach, vi } from 'vitest';

/**
 * What the commands print, for tests that run them in this process: registers hooks that
 * capture `process.stdout` for each test (nothing reaches the terminal) and restore it after.
 * `text` is what was printed since the test began or since the last `clear()`.
 */
export function captureStdout(): { readonly text: string; clear(): void } {
	let text = '';
	beforeEach(() => {
		text = '';
		vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
			text += String(chunk);
			return true;
		});
	});
	afterEach(() => vi.restoreAllMocks());
	return {
		get text() {
			return text;
		},
		clear: () => {
			text = '';
		}
	};
}
