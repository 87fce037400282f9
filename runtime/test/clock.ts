import { onTestFinished, vi } from 'vitest';

/**
 * Freezes `Date` (only: timers stay real, so scrypt, SMTP and the stores' cleanups run as usual)
 * at `iso` until the current test ends; move it with `vi.setSystemTime`.
 */
export function freezeDate(iso: string): void {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(Date.parse(iso));
	onTestFinished(() => {
		vi.useRealTimers();
	});
}
