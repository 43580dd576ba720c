// No fixture that a rewrite changes is left with a list unwrap on an error read. Every fixture
// case whose output differs from its input is rewritten for real; in each rewritten file, every
// response-body read is classified (codemod/engine/response-branch.ts) and a v2 list key
// (`pods`, `templates`, …) read off an error body fails the test: v2 answers errors with a
// problem document, so that key is undefined exactly when the code wants the error details.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Node, Project, SyntaxKind, type SourceFile } from "../../codemod/ts-morph.ts";
import { classifyRead, type ReadSide } from "../../codemod/engine/response-branch.ts";
import { referencesOf, skipParens } from "../../codemod/engine/nodes.ts";
import { enclosingFunction } from "../../codemod/engine/scope.ts";
import { operations } from "../../mappings/index.ts";
import { casePairs, fixtureCases } from "./fixture-helpers.ts";

const LIST_KEYS = new Set(operations.flatMap((op) => (op.response.kind === "list" ? [op.response.wrapper] : [])));

/** The value a read gives: through `.catch(…)` fallbacks and an `await`. */
function awaited(node: Node): Node {
  let n = node;
  for (let up = skipParens(n).getParent(); up && Node.isPropertyAccessExpression(up) && up.getName() === "catch" && Node.isCallExpression(up.getParent()); up = skipParens(n).getParent()) n = up.getParent()!;
  const p = skipParens(n).getParent();
  return p && Node.isAwaitExpression(p) ? p : n;
}

/** Response-body reads: `x.json()`, `JSON.parse(…)`, `x.data`, `….then((r) => r.json())`, `{ data: … }` of an awaited call. */
function bodyReads(sf: SourceFile): Node[] {
  const reads: Node[] = [];
  sf.forEachDescendant((n) => {
    if (Node.isCallExpression(n)) {
      const callee = n.getExpression();
      const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : "";
      const cb = n.getArguments()[0];
      if (name === "json" || callee.getText() === "JSON.parse") reads.push(awaited(n));
      else if (name === "then" && cb && Node.isArrowFunction(cb) && /\.(json\(\)|data)$/.test(cb.getBody().getText())) reads.push(awaited(n));
    } else if (Node.isPropertyAccessExpression(n) && n.getName() === "data") reads.push(n);
    else if (Node.isBindingElement(n) && (n.getPropertyNameNode()?.getText() ?? n.getName()) === "data") reads.push(n);
  });
  return reads;
}

/**
 * The side of an unwrapped value: the read's, or, for a read that serves both sides (`unknown`),
 * error when the variable the unwrapped list is kept in is used on the error side.
 */
function sideOf(read: Node, unwrapped: Node): ReadSide {
  const side = classifyRead(read);
  const decl = skipParens(unwrapped).getParent();
  if (side !== "unknown" || !decl || !Node.isVariableDeclaration(decl)) return side;
  const name = decl.getNameNode();
  const names = Node.isIdentifier(name) ? [name] : Node.isObjectBindingPattern(name) ? name.getElements().map((el) => el.getNameNode()) : [];
  const refs = names.flatMap((id) => referencesOf(enclosingFunction(decl), id));
  return refs.some((ref) => classifyRead(ref, read) === "error") ? "error" : side;
}

/** List-key reads of one body read, each with the side of the read (or of the use, for a variable). */
function listKeyReads(read: Node): { at: Node; side: ReadSide }[] {
  const out: { at: Node; side: ReadSide }[] = [];
  const keyed = (pattern: Node) => Node.isObjectBindingPattern(pattern) && pattern.getElements().some((el) => LIST_KEYS.has(el.getPropertyNameNode()?.getText() ?? el.getName()));
  if (Node.isBindingElement(read)) {
    if (keyed(read.getNameNode())) out.push({ at: read, side: classifyRead(read) });
    return out;
  }
  const outer = skipParens(read);
  const p = outer.getParent();
  if (!p) return out;
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    if (LIST_KEYS.has(p.getName())) out.push({ at: p, side: sideOf(read, p) });
    // `.then((body) => body.pods)`
    const then = p.getName() === "then" ? p.getParent() : undefined;
    const cb = then && Node.isCallExpression(then) ? then.getArguments()[0] : undefined;
    if (cb && Node.isArrowFunction(cb) && [...LIST_KEYS].some((k) => cb.getBody().getText().endsWith(`.${k}`))) out.push({ at: cb, side: classifyRead(read) });
  }
  if (Node.isVariableDeclaration(p)) {
    const name = p.getNameNode();
    if (keyed(name)) out.push({ at: p, side: sideOf(read, outer) });
    if (Node.isIdentifier(name)) {
      for (const ref of referencesOf(enclosingFunction(p), name)) {
        const rp = ref.getParent();
        if (rp && Node.isPropertyAccessExpression(rp) && rp.getExpression() === ref && LIST_KEYS.has(rp.getName())) out.push({ at: rp, side: classifyRead(ref, read) });
      }
    }
  }
  return out;
}

/** Every list-key read in a file as `line: text (side)`. */
function listUnwraps(sf: SourceFile): { where: string; side: ReadSide }[] {
  return bodyReads(sf).flatMap((r) => listKeyReads(r)).map(({ at, side }) => ({ where: `${sf.getBaseName()}:${at.getStartLineNumber()}: ${at.getText().replace(/\s+/g, " ").slice(0, 100)}`, side }));
}

const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true, jsx: 1 } });
let n = 0;
const parse = (name: string, text: string) => project.createSourceFile(`/f${n++}/${name.split("/").pop()}`, text);

describe("no list unwrap on an error read", () => {

  it("the scan finds a list key read off an error body, and not one off a success body", () => {
    const bad = parse("bad.ts", `async function f(res: any) {\n if (!res.ok) { const p = (await res.json()).pods; throw new Error(p); }\n const { pods } = await res.json();\n const r = await axios.get(u, { validateStatus: () => true });\n if (r.status >= 400) return { failed: r.data.templates };\n return r.data.templates; }`);
    const found = listUnwraps(bad);
    expect(found.filter((f) => f.side === "error").map((f) => f.where)).toEqual(["bad.ts:2: (await res.json()).pods", "bad.ts:5: r.data.templates"]);
    expect(found.filter((f) => f.side !== "error").map((f) => f.where)).toEqual(["bad.ts:3: { pods } = await res.json()", "bad.ts:6: r.data.templates"]);
  });

  it("a list unwrapped before the status check and kept for the error side counts as an error read", () => {
    const early = parse("early.ts", `async function f(res: any) {
 const data = (await res.json()).endpoints;
 if (!res.ok) throw new Error(JSON.stringify(data));
 return data; }`);
    expect(listUnwraps(early)).toEqual([{ where: "early.ts:2: (await res.json()).endpoints", side: "error" }]);
    const late = parse("late.ts", `async function f(res: any) {
 const data = await res.json();
 if (!res.ok) throw new Error(JSON.stringify(data));
 return data.endpoints; }`);
    expect(listUnwraps(late)).toEqual([{ where: "late.ts:4: data.endpoints", side: "success" }]);
  });

  // Only the cases the rewrite changes: the negatives come out as they went in.
  const changed = fixtureCases().filter((name) => casePairs(name).some((p) => readFileSync(p.input, "utf8") !== readFileSync(p.output, "utf8")));

  // The committed outputs: the fixtures test (test/codemod/fixtures-*.test.ts) checks each is what the rewrite writes for
  // its input, so scanning them scans the rewrite's output without running it a second time.
  it("holds for every rewritten fixture output", () => {
    const errors: string[] = [];
    let unwraps = 0;
    for (const name of changed) {
      for (const p of casePairs(name)) {
        if (!/\.(ts|tsx|js|jsx|mjs|cjs)$/.test(p.rel)) continue;
        for (const u of listUnwraps(parse(p.rel, readFileSync(p.output, "utf8")))) {
          unwraps++;
          if (u.side === "error") errors.push(`${name}/${u.where}`);
        }
      }
    }
    expect(errors).toEqual([]);
    // The scan sees the list unwraps the rewrite writes (it is not vacuous).
    expect(changed.length).toBeGreaterThan(40);
    expect(unwraps).toBeGreaterThan(30);
  });
});
