import MagicString from 'magic-string';
import type { Node } from '@babel/types';
import { parseModule, walk } from './ast.js';

/** The outcome of {@link applyModuleDelta}. */
export interface ModuleDelta {
	/** The edited text; equal to the target when nothing had to change or nothing could be done. */
	content: string;
	/** Changes that could not be made because the user changed the same code: one manual step each. */
	pending: string[];
}

/** A member of a list the delta edits: a statement, an import specifier, a property, an element. */
interface Item {
	key: string;
	node: Node;
	/** Start offset, including the leading comments that belong to it. */
	start: number;
	end: number;
}

/**
 * Carries the difference between two renderings of a module (`from` → `to`, e.g. `src/auth.ts`
 * for two sets of providers) over to the user's copy of it (`target`), structurally: statements,
 * import specifiers, destructured names, object properties and array elements are matched by
 * key (a declared name, an import source, a property name, an identifier), then added, removed
 * or, recursively, changed in place. So a provider added to `providers: [...]` lands next to
 * the providers the user wrote by hand instead of conflicting with them, and every line the
 * delta does not touch stays byte-identical.
 *
 * Guarantees: when `target` equals `from`, the result equals `to`. An item already in `target`
 * is never added twice. Nothing of the user's is lost: a statement or property the user changed
 * is removed or replaced only while it still reads as `from` has it, an import or declaration
 * is removed only when nothing else in `target` still uses its name; otherwise it stays and the
 * result carries the manual step.
 *
 * @param file the app-relative path, for the manual steps
 * @returns undefined when one of the texts does not parse (the caller falls back to a line merge)
 */
export function applyModuleDelta(target: string, from: string, to: string, file: string): ModuleDelta | undefined {
	const [a, f, t] = [parseModule(target), parseModule(from), parseModule(to)];
	if (!a || !f || !t) return undefined;
	const delta = new Delta(target, from, to, file);
	delta.list(statements(a.program.body, target), statements(f.program.body, from), statements(t.program.body, to), undefined, 'statement');
	delta.finish();
	return { content: delta.edit.toString(), pending: delta.pending };
}

class Delta {
	readonly edit: MagicString;
	readonly pending: string[] = [];
	/** Ranges of `target` this delta removes: names used only there count as unused. */
	private readonly removed: Array<[number, number]> = [];
	/** Items to remove, queued by {@link list} and done by {@link finish}. */
	private readonly removals: Array<{ item: Item; before: Item; siblings: Item[]; kind: string }> = [];

	/** The three texts in the order the node triples are given: target, from, to. */
	private readonly sources: readonly [string, string, string];

	constructor(
		private readonly target: string,
		private readonly from: string,
		private readonly to: string,
		private readonly file: string
	) {
		this.edit = new MagicString(target);
		this.sources = [target, from, to];
	}

	/**
	 * Edits one list of `target` (statements, specifiers, properties, elements) so that it has
	 * the items `to` added and lacks the ones it removed. `emptyAt` is where the first item goes
	 * when the target list is empty.
	 */
	list(aItems: Item[], fromItems: Item[], toItems: Item[], emptyAt: number | undefined, kind: string): void {
		const inA = new Map(aItems.map((item) => [item.key, item]));
		const inFrom = new Map(fromItems.map((item) => [item.key, item]));
		const inTo = new Map(toItems.map((item) => [item.key, item]));

		for (const kept of toItems) {
			const before = inFrom.get(kept.key);
			const item = inA.get(kept.key);
			if (before && item && this.textOf(this.from, before) !== this.textOf(this.to, kept)) {
				this.change(item.node, before.node, kept.node);
			}
		}
		for (const gone of fromItems.filter((item) => !inTo.has(item.key))) {
			const item = inA.get(gone.key);
			if (item) this.removals.push({ item, before: gone, siblings: aItems, kind });
		}
		// Separator: `to`'s between statements (blank lines vary); within a list, the target's own
		// style when it has two items to copy it from (one per line, or all on one).
		const targetSeparator =
			kind !== 'statement' && aItems.length >= 2 ? this.target.slice(aItems[0]!.end, aItems[1]!.start) : undefined;
		toItems.forEach((item, index) => {
			if (inFrom.has(item.key) || inA.has(item.key)) return;
			const anchor = toItems.slice(0, index).reverse().find((previous) => inA.has(previous.key));
			const text = this.to.slice(item.start, item.end);
			if (anchor) {
				// After the anchor and the user's own items that follow it: `[credentials, mine]` + github
				// gives `[credentials, mine, github]`.
				let at = aItems.indexOf(inA.get(anchor.key)!);
				while (aItems[at + 1] && !inFrom.has(aItems[at + 1]!.key) && !inTo.has(aItems[at + 1]!.key)) at += 1;
				const separator = targetSeparator ?? this.to.slice(toItems[index - 1]!.end, item.start);
				this.edit.appendLeft(aItems[at]!.end, `${separator}${text}`);
			} else if (aItems.length > 0) {
				const next = toItems[index + 1];
				const separator = targetSeparator ?? (next ? this.to.slice(item.end, next.start) : ', ');
				this.edit.appendLeft(aItems[0]!.start, `${text}${separator}`);
			} else if (emptyAt !== undefined) {
				this.edit.appendLeft(emptyAt, text);
			} else {
				this.pending.push(`Add to ${this.file}: ${text}`);
			}
		});
	}

	/**
	 * Does the queued removals from the last one in the text up: code that uses a name (a
	 * provider's element, its callbacks) comes after what binds it (the import, the declaration),
	 * so each name is checked for other uses once its users are gone.
	 */
	finish(): void {
		// Last first, each against the siblings still there: of two trailing items, the first one
		// removed takes its leading separator, and the other then is the last and takes its own.
		const gone = new Set<Item>();
		for (const { item, before, siblings, kind } of this.removals.sort((x, y) => y.item.start - x.item.start)) {
			if (this.remove(item, before, siblings.filter((sibling) => !gone.has(sibling)), kind)) gone.add(item);
		}
	}

	/** Removes `item` unless the user changed it or still uses what it declares (a manual step then); says whether it did. */
	private remove(item: Item, before: Item, siblings: Item[], kind: string): boolean {
		const edited = this.textOf(this.target, item) !== this.textOf(this.from, before);
		const names = declaredNames(item.node);
		const range = removalRange(item, siblings, this.target);
		if (edited && (kind === 'statement' || kind === 'property')) {
			this.pending.push(`${this.file}: ${describe(item.node)} has your changes, so it was kept; delete it if you no longer need it.`);
			return false;
		}
		const used = names.filter((name) => this.usedOutside(name, range));
		if (used.length > 0) {
			this.pending.push(`${this.file}: ${describe(item.node)} was kept because ${used.join(', ')} is still used; delete it when nothing needs it.`);
			return false;
		}
		this.removed.push(range);
		this.edit.remove(range[0], range[1]);
		return true;
	}

	/** An item both renderings have, changed between them: recurse where the shape is known. */
	private change(a: Node, f: Node, t: Node): void {
		const [ua, uf, ut] = [a, f, t].map(unwrapExport) as [Node, Node, Node];
		if (ua.type === 'ImportDeclaration' && uf.type === 'ImportDeclaration' && ut.type === 'ImportDeclaration') {
			const named = [ua, uf, ut].map((node) => node.specifiers.filter((s) => s.type === 'ImportSpecifier'));
			const others = [ua, uf, ut].map((node) => node.specifiers.filter((s) => s.type !== 'ImportSpecifier').map((s) => s.local.name).join());
			if (named[0]!.length > 0 && others[0] === others[1] && others[1] === others[2]) {
				const [sa, sf, st] = named.map((list, index) => list.map((node) => specifierItem(node, this.sources[index]!)));
				this.list(sa!, sf!, st!, undefined, 'specifier');
				return;
			}
		}
		if (ua.type === 'VariableDeclaration' && uf.type === 'VariableDeclaration' && ut.type === 'VariableDeclaration') {
			const [da, df, dt] = [ua, uf, ut].map((node) => node.declarations[0]!);
			if (ua.declarations.length === 1 && uf.declarations.length === 1 && ut.declarations.length === 1) {
				this.pair(da!.id, df!.id, dt!.id);
				if (da!.init && df!.init && dt!.init) this.pair(da!.init, df!.init, dt!.init);
				return;
			}
		}
		if (ua.type === 'ExportDefaultDeclaration' && uf.type === 'ExportDefaultDeclaration' && ut.type === 'ExportDefaultDeclaration') {
			this.pair(ua.declaration, uf.declaration, ut.declaration);
			return;
		}
		if (ua.type === 'ObjectProperty' && uf.type === 'ObjectProperty' && ut.type === 'ObjectProperty') {
			this.pair(ua.value, uf.value, ut.value);
			return;
		}
		this.replace(a, f, t);
	}

	/** Nodes at the same place in the three texts: equal in `from` and `to` means nothing to do. */
	private pair(a: Node, f: Node, t: Node): void {
		if (this.from.slice(f.start!, f.end!) === this.to.slice(t.start!, t.end!)) return;
		if (a.type === 'ObjectPattern' && f.type === 'ObjectPattern' && t.type === 'ObjectPattern') {
			const [la, lf, lt] = [a, f, t].map((node, index) => node.properties.map((p) => propertyItem(p, this.sources[index]!)));
			this.list(la!, lf!, lt!, a.start! + 1, 'name');
		} else if (a.type === 'ObjectExpression' && f.type === 'ObjectExpression' && t.type === 'ObjectExpression') {
			const [la, lf, lt] = [a, f, t].map((node, index) => node.properties.map((p) => propertyItem(p, this.sources[index]!)));
			this.list(la!, lf!, lt!, a.start! + 1, 'property');
		} else if (a.type === 'ArrayExpression' && f.type === 'ArrayExpression' && t.type === 'ArrayExpression') {
			const [la, lf, lt] = [a, f, t].map((node, index) =>
				node.elements.flatMap((element) => (element ? [elementItem(element, this.sources[index]!)] : []))
			);
			this.list(la!, lf!, lt!, a.start! + 1, 'element');
		} else if (a.type === 'CallExpression' && f.type === 'CallExpression' && t.type === 'CallExpression') {
			const same = (x: Node, y: Node, sx: string, sy: string) => sx.slice(x.start!, x.end!) === sy.slice(y.start!, y.end!);
			if (
				same(a.callee, f.callee, this.target, this.from) &&
				same(f.callee, t.callee, this.from, this.to) &&
				a.arguments.length === f.arguments.length &&
				f.arguments.length === t.arguments.length
			) {
				a.arguments.forEach((argument, index) => this.pair(argument, f.arguments[index]!, t.arguments[index]!));
			} else this.replace(a, f, t);
		} else this.change(a, f, t);
	}

	/** Replaces a node the user left as `from` has it with `to`'s; otherwise leaves a manual step. */
	private replace(a: Node, f: Node, t: Node): void {
		const after = this.to.slice(t.start!, t.end!);
		if (this.target.slice(a.start!, a.end!) === this.from.slice(f.start!, f.end!)) {
			this.edit.overwrite(a.start!, a.end!, after);
			return;
		}
		this.pending.push(`${this.file}: ${describe(a)} has your changes; update it by hand to read:\n${after}`);
	}

	/** Whether `name` is referenced in `target` outside `range` and outside ranges already removed. */
	private usedOutside(name: string, range: [number, number]): boolean {
		const ast = parseModule(this.target)!;
		let used = false;
		const outside = (node: Node) =>
			[range, ...this.removed].every(([start, end]) => node.end! <= start || node.start! >= end);
		// Property names (`{ email: … }`, `x.email`) are not references to a binding.
		const propertyNames = new Set<Node>();
		walk(ast.program, (node) => {
			if ((node.type === 'ObjectProperty' || node.type === 'ObjectMethod' || node.type === 'ClassProperty' || node.type === 'ClassMethod') && !node.computed) {
				propertyNames.add(node.key);
			} else if ((node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') && !node.computed) propertyNames.add(node.property);
			if (node.type === 'Identifier' && node.name === name && !propertyNames.has(node) && outside(node)) used = true;
		});
		return used;
	}

	private textOf(source: string, item: Item): string {
		return source.slice(item.start, item.end);
	}
}

/** Top-level statements as items, keyed by what they declare (see {@link statementKey}). */
function statements(body: Node[], source: string): Item[] {
	return body.map((node) => ({ key: statementKey(node, source), node, start: startWithComments(node), end: node.end! }));
}

/**
 * A statement's identity across renderings: an import by its source, a declaration by its first
 * declared name, a destructuring by the function it calls (`call:SvelteKitAuth`), the default
 * export, anything else by its text.
 */
function statementKey(statement: Node, source: string): string {
	const node = unwrapExport(statement);
	if (node.type === 'ImportDeclaration') return `import${node.importKind === 'type' ? ' type' : ''}:${node.source.value}`;
	if (node.type === 'ExportDefaultDeclaration') return 'export default';
	if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) return `declare:${node.id.name}`;
	if (node.type === 'VariableDeclaration' && node.declarations.length > 0) {
		const { id, init } = node.declarations[0]!;
		if (id.type === 'Identifier') return `declare:${id.name}`;
		if (init?.type === 'CallExpression' && init.callee.type === 'Identifier') return `call:${init.callee.name}`;
	}
	return textKey(statement, source);
}

function textKey(node: Node, source: string): string {
	return `text:${source.slice(node.start!, node.end!)}`;
}

function unwrapExport(node: Node): Node {
	return node.type === 'ExportNamedDeclaration' && node.declaration ? node.declaration : node;
}

function specifierItem(node: Node, source: string): Item {
	const key = node.type === 'ImportSpecifier' ? `${nameOf(node.imported, source)} as ${node.local.name}` : node.type;
	return { key, node, start: node.start!, end: node.end! };
}

function propertyItem(node: Node, source: string): Item {
	const key =
		(node.type === 'ObjectProperty' || node.type === 'ObjectMethod') && !node.computed ? nameOf(node.key, source) : textKey(node, source);
	return { key, node, start: startWithComments(node), end: node.end! };
}

function elementItem(node: Node, source: string): Item {
	return { key: node.type === 'Identifier' ? node.name : textKey(node, source), node, start: node.start!, end: node.end! };
}

function nameOf(node: Node, source: string): string {
	if (node.type === 'Identifier') return node.name;
	if (node.type === 'StringLiteral') return node.value;
	return textKey(node, source);
}

function startWithComments(node: Node): number {
	return Math.min(node.start!, ...(node.leadingComments ?? []).map((comment) => comment.start!));
}

/**
 * What removing `item` removes: the item and one of the separators around it, so the larger one
 * stays (the last import goes with the newline before it, keeping the blank line after it);
 * for the last item, the separator before it.
 */
function removalRange(item: Item, siblings: Item[], source: string): [number, number] {
	const index = siblings.indexOf(item);
	const [previous, next] = [siblings[index - 1], siblings[index + 1]];
	if (!next) return [previous ? previous.end : item.start, item.end];
	if (previous && source.slice(item.end, next.start).length > source.slice(previous.end, item.start).length) {
		return [previous.end, item.end];
	}
	return [item.start, next.start];
}

/** The names a statement binds (import locals, declared variables and functions). */
function declaredNames(statement: Node): string[] {
	const node = unwrapExport(statement);
	if (node.type === 'ImportDeclaration') return node.specifiers.map((s) => s.local.name);
	if (node.type === 'ImportSpecifier') return [node.local.name];
	if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) return [node.id.name];
	if (node.type === 'VariableDeclaration') {
		return node.declarations.flatMap((d) => (d.id.type === 'Identifier' ? [d.id.name] : []));
	}
	return [];
}

function describe(statement: Node): string {
	const node = unwrapExport(statement);
	if (node.type === 'ImportDeclaration') return `the import from '${node.source.value}'`;
	const names = declaredNames(node);
	if (names.length > 0) return `\`${names.join(', ')}\``;
	if ((node.type === 'ObjectProperty' || node.type === 'ObjectMethod') && node.key.type === 'Identifier') {
		return `the \`${node.key.name}\` option`;
	}
	return `\`${node.type}\``;
}
