import { isAsWritten, MANIFEST_PATH, type Manifest } from '../manifest.js';
import type { Check } from './check.js';
import type { DoctorInput } from './gather.js';

/** A conflict marker `regenerate` writes at the start of a line. */
const CONFLICT_MARKER = /^<{7}(?: |$)/m;

/**
 * `manifest`: error when the app has no readable manifest (then it is the only check doctor
 * reports: everything else depends on the answers it records).
 */
export function manifestCheck(input: Pick<DoctorInput, 'manifest' | 'manifestDamaged'>): Check {
	const { manifest } = input;
	if (manifest) {
		const { providers, strategy, adapter } = manifest.answers;
		return {
			id: 'manifest',
			status: 'ok',
			message: `Set up by create-auth ${manifest.version}: ${providers.join(', ')}; ${strategy} sessions; ${adapter} adapter.`
		};
	}
	return input.manifestDamaged
		? {
				id: 'manifest',
				status: 'error',
				message: `${MANIFEST_PATH} is not a create-auth manifest (damaged or edited by hand).`,
				hint: 'Restore it from version control: create-auth needs it to regenerate without losing your edits.'
			}
		: {
				id: 'manifest',
				status: 'error',
				message: 'create-auth has not set up this app; run npx create-auth.',
				hint: `No ${MANIFEST_PATH} here; point at the app with --cwd <path> if it lives elsewhere.`
			};
}

/**
 * `conflicts` (error: a file `regenerate` left with conflict markers still holds one),
 * `manifest-version` (warn: written by another create-auth version than this one),
 * `pending:<n>` (warn: each manual step the manifest records, numbered from 1; the bare
 * `pending` ok when none), `runtime-edited` and `runtime-deleted` (warn: vendored runtime
 * files whose text on disk is not the text create-auth last wrote, or that are gone).
 */
export function manifestChecks(input: Pick<DoctorInput, 'toolVersion' | 'libDir' | 'files'> & { manifest: Manifest }): Check[] {
	const { manifest, files } = input;
	const checks: Check[] = [];

	const unresolved = (manifest.conflicts ?? []).filter((file) => CONFLICT_MARKER.test(files[file] ?? ''));
	checks.push(
		unresolved.length === 0
			? { id: 'conflicts', status: 'ok', message: 'No file holds conflict markers from regenerate.' }
			: {
					id: 'conflicts',
					status: 'error',
					message: `${unresolved.join(', ')} still ${unresolved.length === 1 ? 'holds' : 'hold'} conflict markers (<<<<<<<) from regenerate: every create-auth run refuses until they are resolved.`,
					hint: 'In each file, keep what you want between <<<<<<< and >>>>>>> and delete the markers.'
				}
	);

	const order = compareVersions(manifest.version, input.toolVersion);
	checks.push(
		order === 0
			? { id: 'manifest-version', status: 'ok', message: `The app is up to date with create-auth ${input.toolVersion}.` }
			: order < 0
				? {
						id: 'manifest-version',
						status: 'warn',
						message: `The app was set up by create-auth ${manifest.version}; this is ${input.toolVersion}.`,
						hint: 'Run npx create-auth regenerate to update the runtime and generated files (your edits are merged).'
					}
				: {
						id: 'manifest-version',
						status: 'warn',
						message: `The app was set up by create-auth ${manifest.version}, newer than this one (${input.toolVersion}).`,
						hint: 'Run npx create-auth@latest doctor.'
					}
	);

	if (manifest.pending.length === 0) checks.push({ id: 'pending', status: 'ok', message: 'No manual step pending.' });
	manifest.pending.forEach((step, index) =>
		checks.push({
			id: `pending:${index + 1}`,
			status: 'warn',
			message: `To do by hand: ${step}`,
			hint: 'The next create-auth run checks it again.'
		})
	);

	const runtime = Object.entries(manifest.files).flatMap(([path, file]) =>
		file.strategy === 'managed' && (path.startsWith(`${input.libDir}/server/auth/`) || path.startsWith(`${input.libDir}/auth/`))
			? [{ path, file }]
			: []
	);
	const edited = runtime.filter(({ path, file }) => files[path] !== undefined && !isAsWritten(file, files[path])).map(({ path }) => path);
	const deleted = runtime.filter(({ path }) => files[path] === undefined).map(({ path }) => path);
	checks.push(
		edited.length === 0
			? { id: 'runtime-edited', status: 'ok', message: `The ${runtime.length} runtime files are as create-auth wrote them.` }
			: {
					id: 'runtime-edited',
					status: 'warn',
					message: `${edited.length} runtime ${edited.length === 1 ? 'file was' : 'files were'} edited since create-auth wrote ${edited.length === 1 ? 'it' : 'them'}: ${edited.join(', ')}.`,
					hint: 'regenerate merges your edits into the next version (conflicts are marked); to change behaviour, prefer src/auth.ts.'
				},
		deleted.length === 0
			? { id: 'runtime-deleted', status: 'ok', message: 'No runtime file is missing.' }
			: {
					id: 'runtime-deleted',
					status: 'warn',
					message: `${deleted.length} runtime ${deleted.length === 1 ? 'file is' : 'files are'} missing: ${deleted.join(', ')}; imports of ${deleted.length === 1 ? 'it' : 'them'} fail.`,
					hint: `Run npx create-auth regenerate --restore ${deleted.join(' ')} (regenerate otherwise leaves a deleted file deleted), or restore from version control.`
				}
	);
	return checks;
}

/**
 * Orders two semver versions (`1.2.3`, `1.2.3-next.1`): negative when `a` is older, 0 when
 * equal, positive when newer. A pre-release is older than its release; build metadata is ignored.
 */
export function compareVersions(a: string, b: string): number {
	const split = (version: string) => {
		const [core = '', pre] = version.split('+')[0]!.split(/-(.*)/s);
		return { core: core.split('.').map((part) => Number(part) || 0), pre: pre ? pre.split('.') : [] };
	};
	const x = split(a);
	const y = split(b);
	for (let i = 0; i < 3; i++) {
		const difference = (x.core[i] ?? 0) - (y.core[i] ?? 0);
		if (difference !== 0) return Math.sign(difference);
	}
	if (x.pre.length === 0 || y.pre.length === 0) return Math.sign(y.pre.length - x.pre.length);
	for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
		const [p, q] = [x.pre[i], y.pre[i]];
		if (p === undefined) return -1;
		if (q === undefined) return 1;
		if (p === q) continue;
		const [m, n] = [Number(p), Number(q)];
		if (Number.isInteger(m) && Number.isInteger(n)) return Math.sign(m - n);
		return p < q ? -1 : 1;
	}
	return 0;
}
