// Single-file components (`.vue`, `.svelte`): only their `<script>` blocks are code. The engine
// parses a masked copy, the same length as the file, in which everything outside the blocks is
// blanked (newlines kept), so every offset, line and column is the file's own. Edits land in the
// blocks only; the output is the original file with each block's text replaced, the rest byte
// for byte. A rewrite that would touch anything outside a block is refused (the file is left as
// it was, and says so).
export const SFC_RE = /\.(vue|svelte)$/i;

/** The TypeScript file the engine parses for a component (`Card.vue` → `Card.vue.ts`), and back. */
export const sfcScriptPath = (file: string): string => (SFC_RE.test(file) ? `${file}.ts` : file);
export const sfcPath = (file: string): string => file.replace(/(\.(?:vue|svelte))\.ts$/i, "$1");

export interface ScriptBlock {
  /** Offsets of the block's contents (between `<script …>` and `</script>`). */
  start: number;
  end: number;
}

export function scriptBlocks(text: string): ScriptBlock[] {
  const out: ScriptBlock[] = [];
  const re = /<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].indexOf(">") + 1;
    out.push({ start, end: start + m[1]!.length });
  }
  return out;
}

/** The file with everything outside its script blocks blanked (newlines kept). */
export function maskOutsideScripts(text: string, blocks = scriptBlocks(text)): string {
  let out = "";
  let at = 0;
  const blank = (s: string) => s.replace(/[^\n\r]/g, " ");
  for (const b of blocks) {
    out += blank(text.slice(at, b.start)) + text.slice(b.start, b.end);
    at = b.end;
  }
  return out + blank(text.slice(at));
}

/**
 * The original file with the engine's output of its masked copy put back, or undefined when the
 * output changed something outside the script blocks (or across two of them).
 */
export function unmask(original: string, masked: string, output: string): string | undefined {
  if (output === masked) return original;
  let s = 0;
  while (s < masked.length && s < output.length && output[s] === masked[s]) s++;
  let e = 0;
  while (e < masked.length - s && e < output.length - s && output[output.length - 1 - e] === masked[masked.length - 1 - e]) e++;
  const end = masked.length - e;
  if (!scriptBlocks(original).some((b) => s >= b.start && end <= b.end)) return undefined;
  return original.slice(0, s) + output.slice(s, output.length - e) + original.slice(end);
}
