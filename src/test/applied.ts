import type { Plan } from '../plan.js';
import type { Project } from '../project.js';

/** The project as it would be after writing the plan's operations (`package.json` included). */
export function applied(project: Project, plan: Plan): Project {
	const files = { ...project.files };
	let packageJson = project.packageJson;
	for (const op of plan.operations) {
		if (op.path === 'package.json') packageJson = op.content!;
		else files[op.path] = op.content;
	}
	return { ...project, files, packageJson };
}
