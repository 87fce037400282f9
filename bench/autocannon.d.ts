// The part of autocannon's programmatic API that load.js and flood.js use (the package ships no types).
declare module 'autocannon' {
	interface Options {
		url: string;
		headers?: Record<string, string>;
		connections?: number;
		/** seconds */
		duration?: number;
		method?: string;
		body?: string;
		/** requests per second over all connections: a fixed rate */
		overallRate?: number;
	}
	interface Histogram {
		total: number;
		p50: number;
		p99: number;
	}
	interface Result {
		/** seconds, as measured */
		duration: number;
		requests: Histogram;
		/** milliseconds */
		latency: Histogram;
		statusCodeStats: Record<string, { count: number }>;
		errors: number;
		timeouts: number;
	}
	function autocannon(options: Options): Promise<Result>;
	export default autocannon;
}
