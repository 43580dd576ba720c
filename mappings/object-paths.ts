// Dotted-path access for lenses: `mounts.network.0.volumeId` (numeric segments index arrays).

export function getPath(target: unknown, path: string): unknown {
  return getSegments(target, path.split("."));
}

/** Sets a value, creating objects/arrays on the way; `undefined` leaves the target untouched. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  compilePath(path).set(target, value);
}

function getSegments(target: unknown, segments: string[]): unknown {
  let node: any = target;
  for (const segment of segments) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[segment];
  }
  return node;
}

/** A path split once, for code that reads or writes the same path many times (compiled lenses). */
export interface CompiledPath {
  readonly segments: readonly string[];
  get(target: unknown): unknown;
  set(target: Record<string, unknown>, value: unknown): void;
}

// Compiled paths are written out as JavaScript (`n["mounts"]["persistent"]`), one function per
// path, rather than one loop over segment names shared by every path: each written-out access has
// its own inline cache, which V8 keeps fast for records of one shape, where the shared loop's
// lookups are megamorphic (several times slower; the gateway reads ~30 paths per record). The
// names come from the mapping table and enter the code only as JSON string literals.

/** Statements that leave in `out` the value at `segments` of `from` (undefined once a step is missing). */
export function readPathCode(from: string, segments: readonly string[], out: string): string {
  let code = `${out} = ${from};`;
  for (const s of segments) code += ` if (${out} === null || typeof ${out} !== "object") ${out} = undefined; else ${out} = ${out}[${JSON.stringify(s)}];`;
  return code;
}

/** Statements that set `value` at `segments` of the object `to`, creating objects and arrays on the way. */
export function writePathCode(to: string, segments: readonly string[], value: string): string {
  const last = segments.length - 1;
  if (last === 0) return `${to}[${JSON.stringify(segments[0])}] = ${value};`;
  let code = `{ let n = ${to}, next;`;
  for (let i = 0; i < last; i++) {
    const key = JSON.stringify(segments[i]);
    // The container created on the way is an array when the next segment is numeric.
    const empty = /^\d+$/.test(segments[i + 1]!) ? "[]" : "{}";
    code += ` next = n[${key}]; if (next === undefined || next === null || typeof next !== "object") { n[${key}] = ${empty}; next = n[${key}]; } n = next;`;
  }
  return `${code} n[${JSON.stringify(segments[last])}] = ${value}; }`;
}

export function compilePath(path: string): CompiledPath {
  const segments = path.split(".");
  const get = new Function("t", `let v; ${readPathCode("t", segments, "v")} return v;`) as CompiledPath["get"];
  const set = new Function("t", "v", `if (v === undefined) return; ${writePathCode("t", segments, "v")}`) as CompiledPath["set"];
  return { segments, get, set };
}
