// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
const units: [Intl.RelativeTimeFormatUnit, number][] = [
	['year', 365 * 24 * 3600],
	['month', 30 * 24 * 3600],
	['week', 7 * 24 * 3600],
	['day', 24 * 3600],
	['hour', 3600],
	['minute', 60]
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/**
 * An ISO 8601 date-time as the account page shows it: "just now", "5 minutes ago", "yesterday",
 * "3 weeks ago" (English, to the largest whole unit; under a minute is "just now"). The same on
 * the server and in the browser but at a unit's edge, so a page that renders it hydrates without
 * a mismatch. Null, or a string that is not a date, is "unknown".
 * @param now epoch milliseconds (default: now)
 */
export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
	const then = iso ? Date.parse(iso) : NaN;
	if (Number.isNaN(then)) return 'unknown';
	const seconds = Math.round((now - then) / 1000);
	for (const [unit, size] of units) {
		if (Math.abs(seconds) >= size) return format.format(-Math.trunc(seconds / size), unit);
	}
	return 'just now';
}
