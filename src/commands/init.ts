import { randomBytes } from 'node:crypto';
import * as prompts from '@clack/prompts';
import { createTwoFilesPatch } from 'diff';
import { equivalentCommand, validateAnswers, type Answers } from '../answers.js';
import { applyOperations } from '../apply.js';
import { answersFromFlags, askMissing, type GivenAnswers } from '../ask.js';
import { loadRuntime, loadTemplates, loadToolPackage } from '../assets.js';
import { installDependencies } from '../install.js';
import { missingNode } from '../kit.js';
import { planInit, type Plan } from '../plan.js';
import { detectProject } from '../project.js';
import { findProvider } from '../providers/index.js';

/** Options of `create-auth [options]`, as commander parses them. */
export interface InitOptions extends GivenAnswers {
	/** The app's folder; the process's cwd when not given. */
	cwd?: string;
	yes?: boolean;
	/** false with `--no-install`. */
	install: boolean;
	dryRun?: boolean;
}

/**
 * `create-auth`: ask → plan → apply → install. Prompts only when stdin is a TTY and `--yes`
 * was not given. A failure at any step after writing (including a failed or cancelled install)
 * restores every file, so the app is left as it was.
 *
 * @returns the process exit code (0 on success)
 * @throws {CliError} from detection, validation, writing or installing
 */
export async function init(options: InitOptions): Promise<number> {
	const interactive = !options.yes && process.stdin.isTTY === true;
	const project = await detectProject(options.cwd ?? process.cwd(), process.env.npm_config_user_agent);
	if (interactive) prompts.intro('create-auth');
	const answers = validateAnswers(interactive ? await askMissing(options) : answersFromFlags(options));
	const [templates, runtime, tool] = await Promise.all([loadTemplates(), loadRuntime(), loadToolPackage()]);
	const plan = planInit({
		project,
		answers,
		tool,
		templates,
		runtime,
		authSecret: randomBytes(32).toString('base64url')
	});

	if (options.dryRun) {
		printDryRun(plan);
		return 0;
	}
	if (plan.operations.length === 0) {
		prompts.log.success('Authentication is already set up: nothing to write.');
		reportLeftAlone(plan);
		return 0;
	}
	// SvelteKit 3 needs Node 22.17+: the files are right for it, but an install under this Node
	// would build native modules (better-sqlite3) for the wrong Node, so it waits for the user.
	const neededNode = missingNode(project.kit, process.versions.node);
	if (neededNode) {
		prompts.log.warn(
			`This app's SvelteKit ${project.kit.major} needs Node ${neededNode} or later to install, build and run; this is Node ${process.versions.node}. ` +
				'The files are written for it; install the dependencies with that Node.'
		);
	}
	const rollback = await applyOperations(project.root, plan.operations);
	const dependenciesChanged = plan.operations.some((operation) => operation.path === 'package.json');
	const installNow = options.install && dependenciesChanged && !neededNode;
	if (installNow) {
		// An animated spinner only where a person watches; logs and CI get two plain lines.
		const progress = process.stdout.isTTY ? prompts.spinner() : plainProgress();
		const controller = new AbortController();
		const cancel = () => controller.abort();
		process.once('SIGINT', cancel);
		progress.start(`Installing dependencies with ${project.packageManager}`);
		try {
			await installDependencies(project.root, project.packageManager, controller.signal);
			progress.stop('Dependencies installed');
		} catch (error) {
			progress.error('Install failed: restoring your files');
			await rollback();
			throw error;
		} finally {
			process.off('SIGINT', cancel);
		}
	}

	prompts.log.success(`Wrote ${plan.operations.length} files:\n${plan.operations.map((o) => `  ${o.previous === undefined ? '+' : '~'} ${o.path}`).join('\n')}`);
	reportLeftAlone(plan);
	const steps = [
		...(neededNode ? [`Switch to Node ${neededNode} or later (nvm install 22, for example).`] : []),
		...(installNow || !dependenciesChanged ? [] : [`${project.packageManager} install`]),
		...oauthSteps(answers),
		`${project.packageManager} run dev`,
		answers.providers.includes('credentials') ? 'Open /signup to create an account, then /account.' : 'Open /signin, then /account.',
		'In production, set AUTH_SECRET in the server environment (a build does not carry .env).'
	];
	prompts.note(steps.join('\n'), 'Next steps');
	if (interactive) prompts.outro(`Next time, without prompts:\n  ${equivalentCommand(answers)}`);
	return 0;
}

/**
 * For each OAuth provider: the callback URL to register (on the dev server's origin) and the
 * `.env` keys to fill in, which create-auth left empty.
 */
function oauthSteps(answers: Answers): string[] {
	return answers.providers.flatMap((id) => {
		const scaffold = findProvider(id);
		if (scaffold?.type !== 'oauth') return [];
		const keys = scaffold.env.map((variable) => variable.key).join(', ');
		return [
			`${scaffold.label}: register the callback URL http://localhost:5173/auth/callback/${id} and fill ${keys} in .env.`,
			...(scaffold.tryLocally ? [`  ${scaffold.tryLocally}`] : [])
		];
	});
}

function plainProgress(): Pick<ReturnType<typeof prompts.spinner>, 'start' | 'stop' | 'error'> {
	return {
		start: (message) => prompts.log.step(message ?? ''),
		stop: (message) => prompts.log.success(message ?? ''),
		error: (message) => prompts.log.error(message ?? '')
	};
}

function reportLeftAlone(plan: Plan): void {
	for (const { path, reason } of plan.skipped) prompts.log.warn(`${path}: ${reason}`);
	for (const step of plan.pending) prompts.log.warn(`To do by hand: ${step}`);
}

/** `--dry-run`: new files by name and size, changed files as a unified diff; writes nothing. */
function printDryRun(plan: Plan): void {
	const lines = ['Dry run: nothing was written. create-auth would write:'];
	for (const operation of plan.operations) {
		if (operation.previous === undefined) {
			lines.push(`+ ${operation.path} (new, ${operation.content.split('\n').length} lines)`);
		} else if (operation.path.startsWith('.env') && operation.path !== '.env.example') {
			lines.push(`~ ${operation.path} (adds keys; values hidden)`);
		} else {
			lines.push(createTwoFilesPatch(`a/${operation.path}`, `b/${operation.path}`, operation.previous, operation.content).trimEnd());
		}
	}
	process.stdout.write(`${lines.join('\n')}\n`);
	reportLeftAlone(plan);
}
