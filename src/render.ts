import Handlebars from 'handlebars';
import type { Answers } from './answers.js';
import type { TextFiles } from './assets.js';

/**
 * What templates see: flags to branch on with `{{#if}}` and lists for `{{#each}}`, derived
 * from the answers and nothing else.
 */
export interface TemplateContext {
	providers: Record<string, true>;
	adapters: Record<string, true>;
	strategy: Answers['strategy'];
	protect: string[];
}

/** The template context for a set of answers. */
export function templateContext(answers: Answers): TemplateContext {
	return {
		providers: Object.fromEntries(answers.providers.map((id) => [id, true])),
		adapters: { [answers.adapter]: true },
		strategy: answers.strategy,
		protect: answers.protect
	};
}

/**
 * Renders templates from memory (no I/O, so plans stay pure). Templates under `providers/`
 * and `adapters/` are also registered as partials named by their path without `.ts.hbs`
 * (`{{> providers/credentials}}`). Output is code, so nothing is HTML-escaped.
 */
export function createRenderer(templates: TextFiles): (name: string, context: TemplateContext) => string {
	const handlebars = Handlebars.create();
	for (const [name, source] of Object.entries(templates)) {
		if (/^(providers|adapters)\//.test(name)) {
			handlebars.registerPartial(name.replace(/\.ts\.hbs$/, ''), source);
		}
	}
	const compiled = new Map<string, HandlebarsTemplateDelegate>();
	return (name, context) => {
		let template = compiled.get(name);
		if (!template) {
			const source = templates[name];
			if (source === undefined) throw new Error(`Missing template ${name}`);
			template = handlebars.compile(source, { noEscape: true });
			compiled.set(name, template);
		}
		return template(context);
	};
}
