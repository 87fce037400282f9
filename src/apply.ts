import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './errors.js';
import type { FileOperation } from './plan.js';

/** Undoes an {@link applyOperations}: restores every file's previous text, removes new files. */
export type Rollback = () => Promise<void>;

/**
 * Writes every operation under `root`. All content is already rendered in memory, so the only
 * failures left are I/O ones; on the first failure everything written so far is restored and
 * the app is as it was.
 *
 * Each file is checked right before it is written: if its text is no longer what the plan read
 * (the user saved it meanwhile), nothing is written at all.
 *
 * @returns a rollback, for a later step (dependency install) that fails or is cancelled
 * @throws {CliError} `E_WRITE_FAILED` after restoring the app
 */
export async function applyOperations(root: string, operations: readonly FileOperation[]): Promise<Rollback> {
	const done: FileOperation[] = [];
	const createdDirs: string[] = [];
	const rollback: Rollback = async () => {
		for (const operation of done.reverse()) {
			const file = path.join(root, operation.path);
			if (operation.previous === undefined) await rm(file, { force: true });
			else await writeFile(file, operation.previous);
		}
		for (const dir of createdDirs.reverse()) await rm(dir, { recursive: true, force: true });
	};
	try {
		for (const operation of operations) {
			const file = path.join(root, operation.path);
			const current = await readFile(file, 'utf8').catch(() => undefined);
			if (current !== operation.previous) {
				throw new Error(`${operation.path} changed while create-auth was running`);
			}
			const created = await mkdir(path.dirname(file), { recursive: true });
			if (created) createdDirs.push(created);
			await writeFile(file, operation.content);
			done.push(operation);
		}
	} catch (error) {
		await rollback();
		throw new CliError('E_WRITE_FAILED', `Could not write the files: ${(error as Error).message}. Nothing was changed.`, undefined, {
			cause: error
		});
	}
	return rollback;
}
