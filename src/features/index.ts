import type { FeatureAnswers, FeatureDescriptor } from '../providers/types.js';
import { rateLimitD1 } from './rate-limit-d1.js';
import { rateLimitRedis } from './rate-limit-redis.js';
import { sessionsFromAuthjs } from './sessions-from-authjs.js';
import { sessionsFromBetterAuth } from './sessions-from-better-auth.js';
import { sessionsFromLucia } from './sessions-from-lucia.js';
import { twoFactor } from './two-factor.js';

/**
 * Every feature the CLI can scaffold: descriptors chosen by answers other than the providers,
 * in the order their sections appear (after the providers').
 */
export const FEATURES: readonly FeatureDescriptor[] = [rateLimitRedis, rateLimitD1, sessionsFromAuthjs, sessionsFromBetterAuth, sessionsFromLucia, twoFactor];

/** The features these answers choose, in {@link FEATURES} order. */
export function featuresFor(answers: FeatureAnswers): FeatureDescriptor[] {
	return FEATURES.filter((feature) => feature.chosen(answers));
}

export type { FeatureAnswers, FeatureDescriptor } from '../providers/types.js';
