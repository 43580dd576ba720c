// Module specifiers a file imports, requires or re-exports, read from text: the import graph is
// walked before anything is parsed (and without loading the compiler).
const SPECIFIER = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^\s*import\s+|\bexport\s*\*\s*from\s*)["']([^"'\n]+)["']/gm;

/** Module specifiers a file imports, requires or re-exports (text-level: no parse needed). */
export function specifiersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) out.push(m[1]!);
  return out;
}

