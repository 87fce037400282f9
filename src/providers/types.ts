/**
 * What the CLI needs to know about one provider id to scaffold it: the rest (endpoints, checks,
 * profile mapping) lives in the runtime's provider module of the same id.
 */
export interface ProviderScaffold {
	/** Provider id, the same everywhere: `--providers`, runtime module, template, docs. */
	id: string;
	/** Label shown in the interactive prompt. */
	label: string;
	/** Short hint shown next to the label in the prompt. */
	hint: string;
	/** Extra `src/routes/…` pages this provider needs, as template paths under `templates/routes/`. */
	routes: string[];
}
