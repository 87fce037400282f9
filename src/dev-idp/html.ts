const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const UNESCAPES: Record<string, string> = Object.fromEntries(Object.entries(ESCAPES).map(([char, entity]) => [entity, char]));

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/**
 * Reverses {@link escapeHtml}, which is also how oidc-provider escapes its form_post page.
 * Other entities are left as they are: neither page produces them.
 */
export function unescapeHtml(html: string): string {
	return html.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => UNESCAPES[entity] ?? entity);
}

/** A page's form: its `action` as written (maybe relative) and its named inputs' values. */
export interface HtmlForm {
	action: string;
	fields: URLSearchParams;
}

/**
 * Reads the first `<form>` of a page the dev IdP served: its login page, or oidc-provider's
 * form_post response page. Not a general HTML parser: it expects double-quoted attributes and
 * no inputs outside the form, which both pages guarantee.
 *
 * @returns undefined when the page has no form with an action
 */
export function readForm(html: string): HtmlForm | undefined {
	const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
	const action = form ? attributes(form[1] ?? '').get('action') : undefined;
	if (!form || action === undefined) return undefined;
	const fields = new URLSearchParams();
	for (const input of (form[2] ?? '').matchAll(/<input\b([^>]*)>/gi)) {
		const attrs = attributes(input[1] ?? '');
		const name = attrs.get('name');
		if (name !== undefined) fields.append(name, attrs.get('value') ?? '');
	}
	return { action, fields };
}

/** The text of the page's `role="alert"` element (login failure, error page), if any. */
export function readAlert(html: string): string | undefined {
	const alert = /<[a-z]+\b[^>]*\brole="alert"[^>]*>([^<]*)</i.exec(html);
	return alert?.[1] === undefined ? undefined : unescapeHtml(alert[1]).trim();
}

/** Double-quoted attributes of one tag, unescaped. */
function attributes(tag: string): Map<string, string> {
	return new Map([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name!.toLowerCase(), unescapeHtml(value!)]));
}
