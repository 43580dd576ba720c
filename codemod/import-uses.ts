// How a module uses what it imports, read from text before anything is parsed. A module whose
// imports of v1-connected modules are type-only, JSX tags (`<PodsPage />`), re-exports or bare
// side-effect imports cannot hand a v1 value (a base, an instance, a helper) to anything else it
// imports: the project index then need not parse what it imports (an app's router, say, that
// renders a page calling the v1 client, and imports the rest of the app).

export type ImportKind = "bindings" | "type" | "reexport" | "bare";

export interface ImportStatement {
  spec: string;
  kind: ImportKind;
  /** Local names bound to values (not types); empty for type-only, re-export and bare imports. */
  names: string[];
}

const IMPORT = /\bimport\s+(type\s+)?(?:([\w$]+)\s*,\s*)?([\w$]+|\{[^}]*\}|\*\s*as\s+[\w$]+)\s*from\s*["']([^"'\n]+)["']/g;
const REEXPORT = /\bexport\s+(?:type\s+)?(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["']([^"'\n]+)["']/g;
const BARE = /\bimport\s*["']([^"'\n]+)["']/g;
/** `export { a, b as c };` (no `from`): passing imported names on is not using them. */
const EXPORT_LIST = /\bexport\s*\{[^}]*\}(?!\s*from)/g;

function localNames(typeOnly: boolean, defaultName: string | undefined, clause: string): string[] {
  if (typeOnly) return [];
  const names = defaultName ? [defaultName] : [];
  const ns = /^\*\s*as\s+([\w$]+)$/.exec(clause);
  if (ns) return [...names, ns[1]!];
  if (!clause.startsWith("{")) return [...names, clause];
  for (const item of clause.slice(1, -1).split(",")) {
    const parts = item.trim().split(/\s+/);
    if (!parts[0] || parts[0] === "type") continue; // `{ type Pod }`: a type
    names.push(parts[parts.length - 1]!); // `a`, `a as b`, `default as b`
  }
  return names;
}

/** The import and re-export statements the text-level reader understands, with their spans. */
export function importStatements(text: string): { statements: ImportStatement[]; spans: [number, number][] } {
  const statements: ImportStatement[] = [];
  const spans: [number, number][] = [];
  for (const m of text.matchAll(IMPORT)) {
    statements.push({ spec: m[4]!, kind: m[1] ? "type" : "bindings", names: localNames(!!m[1], m[2], m[3]!.trim()) });
    spans.push([m.index!, m.index! + m[0].length]);
  }
  for (const m of text.matchAll(REEXPORT)) {
    statements.push({ spec: m[1]!, kind: "reexport", names: [] });
    spans.push([m.index!, m.index! + m[0].length]);
  }
  for (const m of text.matchAll(BARE)) {
    statements.push({ spec: m[1]!, kind: "bare", names: [] });
    spans.push([m.index!, m.index! + m[0].length]);
  }
  return { statements, spans };
}

const escape = (s: string) => s.replace(/[$]/g, "\\$");

/**
 * Whether the module may hand a value it imports from one of `connected` (specifiers, as written)
 * to something: any use of such a binding other than as a JSX tag or in an export list counts, and
 * so does any import of them the reader does not understand (`require`, `import()`, `import x =`).
 */
export function passesOnImports(text: string, specifiers: readonly string[], connected: ReadonlySet<string>): boolean {
  const { statements, spans } = importStatements(text);
  // Every connected specifier must be accounted for by a statement the reader understood.
  const understood = new Map<string, number>();
  for (const s of statements) understood.set(s.spec, (understood.get(s.spec) ?? 0) + 1);
  for (const spec of specifiers) {
    if (!connected.has(spec)) continue;
    const left = understood.get(spec) ?? 0;
    if (left === 0) return true;
    understood.set(spec, left - 1);
  }
  const names = statements.filter((s) => connected.has(s.spec)).flatMap((s) => s.names);
  if (!names.length) return false;
  // The rest of the module: import statements and export lists blanked out (offsets kept).
  let rest = text;
  const blank = (from: number, to: number) => (rest = rest.slice(0, from) + " ".repeat(to - from) + rest.slice(to));
  for (const [from, to] of spans) blank(from, to);
  for (const m of rest.matchAll(EXPORT_LIST)) blank(m.index!, m.index! + m[0].length);
  for (const name of names) {
    for (const m of rest.matchAll(new RegExp(`(?<![\\w$.])${escape(name)}(?![\\w$])`, "g"))) {
      const before = rest.slice(Math.max(0, m.index! - 2), m.index!);
      if (!/<\/?$/.test(before)) return true;
    }
  }
  return false;
}
