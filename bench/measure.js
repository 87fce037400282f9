// @ts-check
/** Readings of a running process from /proc (Linux only). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (`getconf CLK_TCK`, usually 100). */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * CPU time the process (all its threads) has used so far, user + system, in microseconds.
 * @param {number} pid
 */
export function cpuMicros(pid) {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// Field 2 (comm) may hold spaces and parentheses: count fields from the last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// fields[0] is field 3 (state), so utime (field 14) and stime (field 15) are at 11 and 12.
	const ticks = Number(fields[11]) + Number(fields[12]);
	return (ticks * 1e6) / CLOCK_TICKS;
}

/**
 * A line of /proc/<pid>/status, e.g. `VmRSS` → `'41236 kB'`, `Cpus_allowed_list` → `'0'`.
 * @param {number} pid
 * @param {string} key
 */
export function status(pid, key) {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8')
		.split('\n')
		.find((l) => l.startsWith(`${key}:`));
	if (!line) throw new Error(`/proc/${pid}/status has no ${key}`);
	return line.slice(key.length + 1).trim();
}

/**
 * Resident set size in MiB.
 * @param {number} pid
 */
export function rssMiB(pid) {
	return Number.parseInt(status(pid, 'VmRSS'), 10) / 1024;
}
