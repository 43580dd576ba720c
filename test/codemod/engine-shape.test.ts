// The engine's shape, checked on its sources: no import cycles inside codemod/engine (each pass
// can be read, and tested, from its inputs), and the analysis helpers only the engine uses live in it.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENGINE = path.join(ROOT, "codemod/engine");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []));
}

/** Value imports (not `import type`) of each engine file that stay inside the engine. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(ENGINE)) {
    const text = readFileSync(file, "utf8");
    const deps: string[] = [];
    for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gm)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      if (target.startsWith(ENGINE + path.sep)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === "done") return undefined;
    if (state.get(n) === "open") return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, "open");
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    stack.pop();
    state.set(n, "done");
    return undefined;
  };
  for (const n of graph.keys()) {
    const c = visit(n);
    if (c) return c;
  }
  return undefined;
}

describe("codemod engine shape", () => {
  it("has no import cycles", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(30);
    const cycle = findCycle(graph);
    expect(cycle?.map((f) => path.relative(ENGINE, f)).join(" → ")).toBeUndefined();
  });

  it("finds a cycle when there is one (the check itself can fail)", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
    ]);
    expect(findCycle(g)).toEqual(["a", "b", "c", "a"]);
  });

  it("keeps the analysis helpers inside the engine, and no shared current-site state", () => {
    for (const m of ["urls", "scope", "symbols", "body"]) {
      expect(existsSync(path.join(ROOT, `codemod/${m}.ts`))).toBe(false);
      expect(existsSync(path.join(ENGINE, `${m}.ts`))).toBe(true);
    }
    const state = readFileSync(path.join(ENGINE, "state.ts"), "utf8");
    expect(state).not.toMatch(/^\s+current\??:/m);
  });
});
