import { adapterChecks } from './adapter.js';
import type { Check } from './check.js';
import { d1Checks } from './d1.js';
import type { DoctorInput } from './gather.js';
import { declaredEnvChecks, missingEnvChecks } from './env.js';
import { existingAuthChecks } from './existing-auth.js';
import { hostChecks } from './host.js';
import { installChecks } from './install.js';
import { manifestCheck, manifestChecks } from './manifest.js';
import { originChecks } from './origin.js';
import { secretChecks } from './secrets.js';
import { twoFactorChecks } from './two-factor.js';

/**
 * Runs every check over the gathered input. Pure. Without a manifest the only check is the
 * `manifest` error: the others depend on the answers it records.
 */
export function runChecks(input: DoctorInput): Check[] {
	const first = manifestCheck(input);
	const { manifest } = input;
	if (!manifest) return [first];
	const { answers } = manifest;
	return [
		first,
		...manifestChecks({ ...input, manifest }),
		...secretChecks({ ...input, answers }),
		...originChecks({ ...input, answers }),
		...missingEnvChecks({ ...input, answers }),
		...declaredEnvChecks({ ...input, answers }),
		...(input.adapter ? adapterChecks(input.adapter) : []),
		...hostChecks({ ...input, answers }),
		...d1Checks({ ...input, answers }),
		...twoFactorChecks({ ...input, manifest }),
		...installChecks(input),
		...existingAuthChecks({ ...input, manifest })
	];
}

export type { AdapterFacts, AdapterProbe } from './adapter.js';
export { lookupEnv, type Check, type CheckStatus, type EnvSources } from './check.js';
export { gatherDoctorInput, type DoctorInput } from './gather.js';
