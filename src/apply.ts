import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './errors.js';
import type { FileOperation } from './plan.js';

/**
 * Where a run records, before writing anything, every file's previous text: while it exists a
 * run is under way or was interrupted (crash, kill, full disk), and the next run undoes it.
 * It holds `.env`'s previous text, so it is written owner-only and deleted when the run ends.
 */
export const JOURNAL_PATH = '.create-auth/journal.json';

/** What the journal records. */
interface Journal {
	/** Each file the run may write, with its text before the run (null: it did not exist). */
	files: Array<{ path: string; previous: string | null }>;
	/** Folders the run creates (app-relative, outermost first); removed on undo. */
	createdDirs: string[];
	/** Suffix of the temporary files written next to their targets before the rename. */
	tempSuffix: string;
}

/** The outcome of {@link applyOperations}: the files are written, the journal still open. */
export interface Applied {
	/** Ends the run: the journal is deleted and the written files stay. */
	commit(): Promise<void>;
	/** Ends the run the other way: every file is restored, new files and folders removed. */
	rollback(): Promise<void>;
}

/**
 * Writes every operation under `root`, so that an interruption at any point never leaves a
 * half-written app:
 * 1. every file's current text is checked against what the plan read (the user may have saved
 *    it meanwhile): any difference and nothing is written;
 * 2. the journal ({@link JOURNAL_PATH}) records the previous texts;
 * 3. each file is written to a temporary file beside it and renamed over it (a file is either
 *    old or new, never cut short); an operation without content deletes its file;
 * 4. the caller ends the run with `commit()` (after installing dependencies) or `rollback()`.
 * A write that fails restores everything at once; a killed process is undone by the next
 * run's {@link recoverInterruptedRun}. `signal` (Ctrl-C) stops between two files and restores.
 *
 * @throws {CliError} `E_WRITE_FAILED` (the app is as it was), `E_CANCELLED` when `signal` aborted
 */
export async function applyOperations(
	root: string,
	operations: readonly FileOperation[],
	signal?: AbortSignal
): Promise<Applied> {
	for (const operation of operations) {
		const current = await readFile(path.join(root, operation.path), 'utf8').catch(() => undefined);
		if (current !== operation.previous) {
			throw new CliError('E_WRITE_FAILED', `${operation.path} changed while create-auth was running. Nothing was changed.`, 'Run it again.');
		}
	}
	const journal: Journal = {
		files: operations.map((operation) => ({ path: operation.path, previous: operation.previous ?? null })),
		createdDirs: missingDirs(root, [...operations.map((operation) => operation.path), JOURNAL_PATH]),
		tempSuffix: `.create-auth-${process.pid}.tmp`
	};
	await writeAtomically(path.join(root, JOURNAL_PATH), JSON.stringify(journal), journal.tempSuffix, 0o600);
	const rollback = async () => {
		await undo(root, journal);
		await rm(path.join(root, JOURNAL_PATH), { force: true });
	};
	try {
		for (const operation of operations) {
			if (signal?.aborted) throw new CliError('E_CANCELLED', 'Cancelled. Nothing was changed.');
			const file = path.join(root, operation.path);
			if (operation.content === undefined) await rm(file, { force: true });
			else {
				await mkdir(path.dirname(file), { recursive: true });
				await writeAtomically(file, operation.content, journal.tempSuffix, holdsSecrets(operation.path) ? 0o600 : undefined);
			}
		}
	} catch (error) {
		await rollback();
		if (error instanceof CliError) throw error;
		throw new CliError('E_WRITE_FAILED', `Could not write the files: ${(error as Error).message}. Nothing was changed.`, undefined, {
			cause: error
		});
	}
	return { commit: () => rm(path.join(root, JOURNAL_PATH), { force: true }), rollback };
}

/**
 * Undoes a run that was interrupted before it ended (its journal is still there): restores
 * every file it recorded, removes the files and folders it created and its temporary files.
 * Every command calls this first.
 *
 * @returns the number of files restored; 0 when no run was interrupted
 */
export async function recoverInterruptedRun(root: string): Promise<number> {
	const journalFile = path.join(root, JOURNAL_PATH);
	const text = await readFile(journalFile, 'utf8').catch(() => undefined);
	if (text === undefined) return 0;
	let journal: Journal;
	try {
		journal = JSON.parse(text) as Journal;
	} catch {
		// Cut short while being written: nothing was written after it, so there is nothing to undo.
		await rm(journalFile, { force: true });
		return 0;
	}
	await undo(root, journal);
	await rm(journalFile, { force: true });
	return journal.files.length;
}

async function undo(root: string, journal: Journal): Promise<void> {
	for (const { path: file, previous } of journal.files) {
		const absolute = path.join(root, file);
		await rm(`${absolute}${journal.tempSuffix}`, { force: true });
		if (previous === null) {
			// Only a file this run created: a folder in the way (why the write failed) stays.
			if ((await stat(absolute).catch(() => undefined))?.isFile()) await rm(absolute);
		} else if ((await readFile(absolute, 'utf8').catch(() => undefined)) !== previous) {
			await mkdir(path.dirname(absolute), { recursive: true });
			await writeAtomically(absolute, previous, journal.tempSuffix);
		}
	}
	for (const dir of [...journal.createdDirs].reverse()) await rm(path.join(root, dir), { recursive: true, force: true });
}

/**
 * Writes `content` to a temporary file beside `file`, then renames it over `file`: a reader sees
 * the old text or the new one, never half. A symlink is followed (the file it points at is
 * replaced) and an existing file keeps its permission bits (`.env` may be 0600); a new one gets
 * `mode`, or the default.
 */
async function writeAtomically(file: string, content: string, tempSuffix: string, mode?: number): Promise<void> {
	await mkdir(path.dirname(file), { recursive: true });
	const target = await realpath(file).catch(() => file);
	const existing = await stat(target).then((stats) => stats.mode & 0o777, () => undefined);
	const temp = `${target}${tempSuffix}`;
	await writeFile(temp, content, { mode: existing ?? mode });
	if (existing !== undefined) await chmod(temp, existing);
	await rename(temp, target);
}

/** `.env` and `.env.local` (not `.env.example`): a new one is created readable by its owner only. */
function holdsSecrets(file: string): boolean {
	const name = path.basename(file);
	return name.startsWith('.env') && name !== '.env.example';
}

/** The outermost folders that the files need and that do not exist yet, app-relative. */
function missingDirs(root: string, files: readonly string[]): string[] {
	const missing = new Set<string>();
	for (const file of files) {
		let dir = path.dirname(file);
		let outermost: string | undefined;
		while (dir !== '.' && !existsSync(path.join(root, dir))) {
			outermost = dir;
			dir = path.dirname(dir);
		}
		if (outermost) missing.add(outermost);
	}
	return [...missing].sort();
}
