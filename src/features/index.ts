import type { FeatureDescriptor } from '../providers/types.js';
import { rateLimitRedis } from './rate-limit-redis.js';

/**
 * Every feature the CLI can scaffold: descriptors chosen by answers other than the providers,
 * in the order their sections appear (after the providers').
 */
export const FEATURES: readonly FeatureDescriptor[] = [rateLimitRedis];

/** The features these answers choose, in {@link FEATURES} order. */
export function featuresFor(answers: { rateLimit: string }): FeatureDescriptor[] {
	return FEATURES.filter((feature) => feature.chosen(answers));
}

export type { FeatureDescriptor } from '../providers/types.js';
