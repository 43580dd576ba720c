// An object filled by copying another object's own entries under computed names:
// `for (const [k, v] of Object.entries(h)) if (v != null) out[k] = v`,
// `for (const k of Object.keys(h)) out[k.toLowerCase()] = h[k]`,
// `Object.entries(h).forEach(([k, v]) => { headers[k] = v })`. The copy holds the same keys as
// its source (lowercased, if the loop lowercases them; without the entries whose value is null,
// if it tests for that), with the same values, so a reader can read the source instead. A loop
// that writes under another computed name (`out[prefix + k]`, `out[map[k]]`) or another value
// is not a copy: the object stays what it was (its readers see the computed write and stop).
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { enclosingFunction, resolveIdentifier } from "../scope.ts";
import { unwrapExpression } from "../urls.ts";
import { absentKey, dynamic, isUndefined, union, type Frame, type Value } from "./value.ts";
import { enclosingEntryLoop, type EntryLoop } from "./entry-loops.ts";

/** The evaluator's two reads a copy needs. */
interface Reader {
  evaluate(node: Node, frame?: Frame): Value;
  property(at: Node, v: Value, key: string): Value;
}

/**
 * `key` of a copy: the source's own (a null value left out reads as undefined either way). Under
 * lowercased keys, the source's keys that lowercase to it, when the source's keys can be listed.
 */
export function copyProperty(r: Reader, at: Node, v: Value & { kind: "copy" }, key: string): Value {
  if (!v.lower) return r.property(at, v.of, key);
  if (key !== key.toLowerCase()) return absentKey(at, key);
  const names = keyNames(r, v.of, 0);
  if (!names) return dynamic(at, `${key} of a copy with lowercased keys, made from an object whose keys the codemod cannot list`, v.of);
  const matching = [...new Set(names.filter((n) => n.toLowerCase() === key))];
  if (!matching.length) return absentKey(at, key);
  return union(at, matching.map((n) => r.property(at, v.of, n)));
}

/** The keys an object value has, when all of them are written out (literals and their spreads). */
export function keyNames(r: Reader, v: Value, depth: number): string[] | undefined {
  if (depth > 8) return undefined;
  switch (v.kind) {
    case "union": {
      const all = v.options.map((o) => keyNames(r, o, depth + 1));
      return all.every((x) => x) ? all.flat() as string[] : undefined;
    }
    case "copy": {
      const names = keyNames(r, v.of, depth + 1);
      return names && (v.lower ? names.map((n) => n.toLowerCase()) : names);
    }
    case "rest": {
      const names = keyNames(r, v.of, depth + 1);
      return names && names.filter((n) => !v.omit.includes(n));
    }
    case "dynamic":
      // Nothing there (an argument not given, a key absent): no keys.
      return isUndefined(v) ? [] : undefined;
    case "object": {
      if (!Node.isObjectLiteralExpression(v.node)) return undefined;
      const out: string[] = [];
      for (const p of v.node.getProperties()) {
        if (Node.isSpreadAssignment(p)) {
          const inner = keyNames(r, r.evaluate(p.getExpression(), v.frame), depth + 1);
          if (!inner) return undefined;
          out.push(...inner);
          continue;
        }
        const nameNode = (p as any).getNameNode?.() as Node | undefined;
        if (!nameNode || Node.isComputedPropertyName(nameNode)) return undefined;
        out.push(Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText());
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** A copy loop found for a variable: its source expression and whether it lowercases the keys. */
export interface CopyLoop {
  /** The object copied (`h` of `Object.entries(h)`), evaluated where the loop is. */
  source: Node;
  lower: boolean;
  /** The write `out[k] = v` (where a reader that stops says it stopped). */
  write: Node;
}

/**
 * The loop that fills the variable declared by `decl` (initialised to an empty `{}`) with a copy
 * of another object's entries, when that is the only thing ever written into it; `{ unknown }`,
 * the write, when the literal is written under a computed name otherwise; else undefined.
 */
export function copyLoopInto(decl: Node): CopyLoop | { unknown: Node } | undefined {
  const computed = computedWrite(decl);
  if (!computed) return undefined;
  return copyOnly(decl) ?? { unknown: computed };
}

/**
 * The uses, in its function, of a variable made as an empty object literal (`const out = {}`), else
 * undefined. Only such a literal is read through its computed writes: one with keys of its own,
 * overridden by key at run time, is read as written (config-keys.ts, env-reads.ts).
 */
function usesOfEmptyLiteral(decl: Node): Node[] | undefined {
  if (!Node.isVariableDeclaration(decl)) return undefined;
  const name = decl.getNameNode();
  const init = decl.getInitializer() && unwrapExpression(decl.getInitializer()!);
  if (!Node.isIdentifier(name) || !init || !Node.isObjectLiteralExpression(init) || init.getProperties().length) return undefined;
  return enclosingFunction(decl)
    .getDescendantsOfKind(SyntaxKind.Identifier)
    .filter((use) => use !== name && use.getText() === name.getText() && resolveIdentifier(use)?.decl === decl);
}

/** The first write into the variable's empty object literal under a computed name (`out[k] = …`): none of its keys is known. */
function computedWrite(decl: Node): Node | undefined {
  const uses = usesOfEmptyLiteral(decl);
  if (!uses) return undefined;
  let first: Node | undefined;
  for (const use of uses) {
    const p = use.getParent();
    if (!p || !Node.isElementAccessExpression(p) || p.getExpression() !== use) continue;
    const key = p.getArgumentExpression() && unwrapExpression(p.getArgumentExpression()!);
    if (!key || Node.isStringLiteral(key) || Node.isNoSubstitutionTemplateLiteral(key) || Node.isNumericLiteral(key)) continue;
    const top = p.getParent();
    if (!top || !Node.isBinaryExpression(top) || top.getLeft() !== p || !isAssignment(top.getOperatorToken().getKind())) continue;
    // The write that is not a copy names where knowledge stops (else the first one).
    if (!copyWrite(p, top.getRight())) return top;
    first ??= top;
  }
  return first;
}

function copyOnly(decl: Node): CopyLoop | undefined {
  const uses = usesOfEmptyLiteral(decl);
  if (!uses) return undefined;
  let found: CopyLoop | undefined;
  for (const use of uses) {
    const p = use.getParent();
    // Read as a whole (returned, handed on, spread): not a write.
    const member = p && (Node.isElementAccessExpression(p) || Node.isPropertyAccessExpression(p)) && p.getExpression() === use ? p : undefined;
    if (!member) {
      if (p && Node.isCallExpression(p) && p.getArguments()[0] === use && /^Object\.(assign|defineProperty|defineProperties)$/.test(p.getExpression().getText())) return undefined;
      continue;
    }
    const top = member.getParent();
    const written = top && ((Node.isBinaryExpression(top) && top.getLeft() === member && isAssignment(top.getOperatorToken().getKind())) || Node.isDeleteExpression(top));
    if (!written) continue;
    const loop = Node.isElementAccessExpression(member) && Node.isBinaryExpression(top) && top.getOperatorToken().getKind() === SyntaxKind.EqualsToken ? copyWrite(member, top.getRight()) : undefined;
    if (!loop || found) return undefined;
    found = loop;
  }
  return found;
}

/** `out[K] = V` inside a loop over another object's entries, K its key (or the key lowercased), V its value. */
function copyWrite(target: Node & { getArgumentExpression(): Node | undefined }, value: Node): CopyLoop | undefined {
  const keyExpr = target.getArgumentExpression() && unwrapExpression(target.getArgumentExpression()!);
  if (!keyExpr) return undefined;
  const lowered = lowercased(keyExpr);
  const keyId = lowered ?? keyExpr;
  if (!Node.isIdentifier(keyId)) return undefined;
  const loop = enclosingEntryLoop(target, keyId.getText());
  if (!loop || !keptEntries(target, loop)) return undefined;
  // The value: the entry's own (`v`), or the source read at the key (`h[k]`).
  const v = unwrapExpression(value);
  const own = loop.value !== undefined && Node.isIdentifier(v) && v.getText() === loop.value;
  const read = Node.isElementAccessExpression(v) && v.getExpression().getText() === loop.source.getText() && unwrapExpression(v.getArgumentExpression()!).getText() === loop.key;
  if (!own && !read) return undefined;
  return { source: loop.source, lower: !!lowered, write: target.getParent()! };
}

/** `k.toLowerCase()`: the `k`. */
function lowercased(e: Node): Node | undefined {
  if (!Node.isCallExpression(e) || e.getArguments().length) return undefined;
  const callee = unwrapExpression(e.getExpression());
  return Node.isPropertyAccessExpression(callee) && ["toLowerCase", "toLocaleLowerCase"].includes(callee.getName()) ? unwrapExpression(callee.getExpression()) : undefined;
}

/**
 * Every entry reaches the write, save those whose value is null or undefined: the write is the
 * loop's body, or guarded only by a test of the value for null (`if (v != null)`, `if (v === undefined) continue`).
 */
function keptEntries(write: Node, loop: EntryLoop): boolean {
  const value = loop.value ?? `${loop.source.getText()}[${loop.key}]`;
  // From the assignment up to the loop's body: statements, blocks, and null tests of the value only.
  for (let n: Node = write.getParent()!; n !== loop.body; ) {
    const up = n.getParent();
    if (!up) return false;
    const guard = Node.isIfStatement(up) && up.getThenStatement() === n && !up.getElseStatement() && nullTest(up.getExpression(), value, false);
    if (!Node.isExpressionStatement(up) && !Node.isBlock(up) && !guard) return false;
    n = up;
  }
  // Statements before the write in the loop's body that skip entries: only `if (<value is null>) continue;`.
  const body = loop.body;
  if (Node.isBlock(body)) {
    for (const s of body.getStatements()) {
      if (s.getStart() >= write.getStart()) break;
      if (Node.isIfStatement(s) && !s.getElseStatement() && /^\{?\s*(continue|return);?\s*\}?$/.test(s.getThenStatement().getText()) && nullTest(s.getExpression(), value, true)) continue;
      if (s.getDescendantsOfKind(SyntaxKind.ContinueStatement).length || s.getDescendantsOfKind(SyntaxKind.BreakStatement).length || s.getDescendantsOfKind(SyntaxKind.ReturnStatement).length) return false;
    }
  }
  return true;
}

/** `v != null`, `v !== undefined`, `v !== null` (or, `skip`: their opposites), `a && b` of such. */
function nullTest(e: Node, value: string, skip: boolean): boolean {
  const u = unwrapExpression(e);
  if (Node.isBinaryExpression(u)) {
    const op = u.getOperatorToken().getText();
    if (op === (skip ? "||" : "&&")) return nullTest(u.getLeft(), value, skip) && nullTest(u.getRight(), value, skip);
    const sides = [u.getLeft(), u.getRight()].map((s) => unwrapExpression(s).getText());
    const nullish = sides.find((s) => s === "null" || s === "undefined");
    const other = sides.find((s) => s !== nullish);
    if (!nullish || other !== value) return false;
    return skip ? ["==", "==="].includes(op) : ["!=", "!=="].includes(op);
  }
  return false;
}

/** `=`, `+=`, `??=` and the other assignments (not comparisons). */
function isAssignment(kind: SyntaxKind): boolean {
  return kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
}
