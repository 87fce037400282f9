/**
 * Adds dependencies the app's package.json lacks, keeping the file's indentation and final
 * newline. Ranges the app already declares (in either section) are kept as they are.
 *
 * @param source package.json text (already validated as JSON by project detection)
 * @param dependencies name → semver range, for `dependencies`
 * @param devDependencies name → semver range, for `devDependencies`
 * @returns the new text, or `source` unchanged when nothing is missing
 */
export function addDependencies(
	source: string,
	dependencies: Record<string, string>,
	devDependencies: Record<string, string>
): string {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	const declared = (section: string) => (manifest[section] ?? {}) as Record<string, string>;
	const has = (name: string) => name in declared('dependencies') || name in declared('devDependencies');
	let changed = false;
	for (const [section, wanted] of [
		['dependencies', dependencies],
		['devDependencies', devDependencies]
	] as const) {
		const missing = Object.entries(wanted).filter(([name]) => !has(name));
		if (missing.length === 0) continue;
		const merged = { ...declared(section), ...Object.fromEntries(missing) };
		manifest[section] = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
		changed = true;
	}
	return changed ? serialize(manifest, source) : source;
}

/**
 * Maps Node subpath imports (package.json `imports`, such as `"#lib/*": "./src/lib/*"`) that
 * the app does not map yet; an entry it has is kept as it is.
 *
 * @returns the new text, or `source` unchanged when every key is mapped
 */
export function addSubpathImports(source: string, imports: Record<string, string>): string {
	const manifest = JSON.parse(source) as Record<string, unknown>;
	const current = (manifest.imports ?? {}) as Record<string, unknown>;
	const missing = Object.entries(imports).filter(([key]) => !(key in current));
	if (missing.length === 0) return source;
	manifest.imports = { ...current, ...Object.fromEntries(missing) };
	return serialize(manifest, source);
}

/** package.json text for `manifest`, with `source`'s indentation and final newline. */
function serialize(manifest: Record<string, unknown>, source: string): string {
	const indent = /^[ \t]+/m.exec(source)?.[0] ?? '\t';
	return JSON.stringify(manifest, null, indent) + (source.endsWith('\n') ? '\n' : '');
}
