// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * What a person reads of a `User-Agent` header on the account page: "Firefox on Windows". Parsed
 * by `bowser` (MIT, maintained), loaded at the first parse so that apps pay for it only when the
 * page lists sessions.
 */

/** A device as the account page shows it. */
export interface Device {
	/** "Firefox on Windows", "Safari on iOS", "Unknown device" when there is no header or nothing is recognised. */
	label: string;
	/** bowser's platform type; `unknown` when there is none. */
	type: 'desktop' | 'mobile' | 'tablet' | 'tv' | 'bot' | 'unknown';
}

const UNKNOWN: Device = { label: 'Unknown device', type: 'unknown' };

let bowser: Promise<typeof import('bowser')> | undefined;

/**
 * The device of `userAgent` (a `User-Agent` header; null or empty is {@link UNKNOWN}). Never
 * throws: a header bowser cannot read is an unknown device.
 */
export async function deviceOf(userAgent: string | null | undefined): Promise<Device> {
	if (!userAgent) return UNKNOWN;
	try {
		bowser ??= import('bowser');
		const parsed = (await bowser).default.parse(userAgent);
		const browser = parsed.browser.name;
		const os = parsed.os.name;
		const label = browser && os ? `${browser} on ${os}` : (browser ?? os ?? UNKNOWN.label);
		const type = (['desktop', 'mobile', 'tablet', 'tv', 'bot'] as const).find((known) => known === parsed.platform.type) ?? 'unknown';
		return { label, type };
	} catch {
		return UNKNOWN;
	}
}
