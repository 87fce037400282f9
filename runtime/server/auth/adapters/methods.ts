// Managed by create-auth: regenerate replaces this file; edit src/auth.ts instead.
/**
 * Calling the adapter: every flow reaches the app's data layer through these two helpers, so
 * that a missing method is a {@link MissingAdapter} naming it and any failure an
 * {@link AdapterError} naming the method.
 * @see create-auth docs/api.md#adapters
 */
import type { ResolvedConfig } from '../config.js';
import { AdapterError, DriverUnavailable, MissingAdapter } from '../errors.js';
import type { Adapter } from './types.js';

/** An adapter method as {@link need} returns it: always async. */
type NeededMethod<K extends keyof Adapter> = (
	...args: Parameters<NonNullable<Adapter[K]>>
) => Promise<Awaited<ReturnType<NonNullable<Adapter[K]>>>>;

/**
 * `adapter[method]` bound to the adapter, or undefined when it lacks the method. Its failures,
 * a rejected promise or a synchronous throw from an adapter that breaks the contract, reject
 * with {@link AdapterError} naming the method, the adapter's error as `cause.err`; a
 * {@link DriverUnavailable} (the driver cannot load here) as it is.
 */
export function adapterMethod<K extends keyof Adapter>(adapter: Adapter | undefined, method: K): NeededMethod<K> | undefined {
	const fn = adapter?.[method] as ((...args: unknown[]) => unknown) | undefined;
	if (!fn) return undefined;
	const call = async (...args: unknown[]) => {
		try {
			return await fn.apply(adapter, args);
		} catch (err) {
			if (err instanceof DriverUnavailable) throw err;
			throw new AdapterError(`The adapter's ${method}() failed: ${(err as Error)?.message ?? err}`, { err: err as Error });
		}
	};
	return call as NeededMethod<K>;
}

/**
 * An adapter method the flow needs: {@link adapterMethod} of the config's adapter.
 * @throws {MissingAdapter} no adapter, or it lacks `method` (the message names it).
 */
export function need<K extends keyof Adapter>(config: ResolvedConfig, method: K): NeededMethod<K> {
	const call = adapterMethod(config.adapter, method);
	if (!call) throw new MissingAdapter(`The adapter has no ${method}() method.`);
	return call;
}

/**
 * Checks that `adapter` has every one of `methods`, which `feature` needs (at startup, so a
 * misconfigured app fails before its first visitor does).
 * @throws {MissingAdapter} naming the missing ones.
 */
export function requireAdapterMethods(adapter: Adapter | undefined, methods: readonly (keyof Adapter)[], feature: string): void {
	const lacking = methods.filter((method) => !adapter?.[method]);
	if (lacking.length > 0) throw new MissingAdapter(`${feature} needs an adapter with ${lacking.join('(), ')}().`);
}
