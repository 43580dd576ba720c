// Harmless query values (the table's `harmless`): a v1 parameter written with a literal value
// that asks for what v2 does anyway (`includeMachine=false`, `grouping: "podId"`) is dropped where
// it is written instead of marking the call. Only a literal value counts; a variable, or a value
// the code also sets elsewhere, keeps the mark.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { isHarmlessQuery, type OperationMapping } from "../../../mappings/index.ts";
import { unwrapExpression } from "../urls.ts";
import { edit, type Plan } from "../state.ts";
import { references } from "../references.ts";
import type { Written } from "../query-flow.ts";

/** The text a literal is sent as in a query (`"false"`, `false`, `` `podId` ``, `1`); undefined for anything else. */
export function queryLiteral(node: Node | undefined): string | undefined {
  const n = node && unwrapExpression(node);
  if (!n) return undefined;
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  if (n.getKind() === SyntaxKind.TrueKeyword) return "true";
  if (n.getKind() === SyntaxKind.FalseKeyword) return "false";
  if (Node.isNumericLiteral(n)) return String(n.getLiteralValue());
  return undefined;
}

/** Whether a parameter written as `name=value` in a URL's literal text can go (the value undecoded when malformed). */
export function harmlessPair(op: OperationMapping, name: string, value: string): boolean {
  if (name.includes("\0") || value.includes("\0")) return false;
  return isHarmlessQuery(op.query?.find((q) => q.v1 === name), [decoded(value)]);
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/**
 * The value a written name is given: a property's initializer, or the second argument of the
 * `.set(name, value)` / `.append(name, value)` whose first argument `written` is.
 */
function valueWritten(written: Node): Node | undefined {
  if (Node.isPropertyAssignment(written)) return written.getInitializer();
  const call = written.getParent();
  if (call && Node.isCallExpression(call) && call.getArguments()[0] === written) return call.getArguments()[1];
  return undefined;
}

/**
 * Whether a parameter can go wherever the code writes it: every place gives it a harmless literal
 * and can be removed without touching another request (see `removable`). If so, those places are
 * added to `drops` (removed together by `dropWritten`).
 */
export function droppable(op: OperationMapping, name: string, given: Written[], call: Node, drops: Node[]): boolean {
  const m = op.query?.find((q) => q.v1 === name);
  // A name inside a literal's text (`?includeMachine=false` in a nested template) is checked, not cut out.
  if (!given.length || !given.every((w): w is Node => w instanceof Node)) return false;
  const written = given;
  const values = written.map((w) => queryLiteral(valueWritten(w)));
  if (values.some((v) => v === undefined) || !isHarmlessQuery(m, values as string[])) return false;
  if (!written.every((w) => removable(w, call) && (Node.isPropertyAssignment(w) || setterStatement(w)))) return false;
  drops.push(...written);
  return true;
}

/** Removes the dropped names: properties (an object's together, so their commas stay right), `.set(…)` statements. */
export function dropWritten(plan: Plan, drops: Node[]): void {
  const byObject = new Map<Node, Set<Node>>();
  for (const w of new Set(drops)) {
    if (Node.isPropertyAssignment(w) || Node.isShorthandPropertyAssignment(w)) {
      const obj = w.getParent()!;
      byObject.set(obj, (byObject.get(obj) ?? new Set()).add(w));
    } else {
      const statement = setterStatement(w)!;
      edit(plan, statement, lineRemoval(statement));
    }
  }
  for (const [obj, gone] of byObject) for (const r of propertyRemovals(obj, gone)) edit(plan, obj, r);
}

/** The statement a `.set(name, …)` call is, alone in a block. */
function setterStatement(written: Node): Node | undefined {
  const setter = written.getParent();
  const statement = setter?.getParent();
  if (!setter || !Node.isCallExpression(setter) || !statement || !Node.isExpressionStatement(statement) || statement.getExpression() !== setter) return undefined;
  const holder = statement.getParent();
  return holder && (Node.isBlock(holder) || Node.isSourceFile(holder)) ? statement : undefined;
}

interface Range {
  start: number;
  end: number;
  text: string;
}

/** Edits removing some properties of an object literal: each run up to the next kept one, a last run from the kept one before. */
function propertyRemovals(obj: Node, gone: Set<Node>): Range[] {
  if (!Node.isObjectLiteralExpression(obj)) return [];
  const props = obj.getProperties();
  if (props.every((p) => gone.has(p))) return [{ start: obj.getStart() + 1, end: obj.getEnd() - 1, text: "" }];
  const out: Range[] = [];
  for (let i = 0; i < props.length; i++) {
    if (!gone.has(props[i]!)) continue;
    let j = i;
    while (j + 1 < props.length && gone.has(props[j + 1]!)) j++;
    if (j + 1 < props.length) out.push({ start: props[i]!.getStart(), end: props[j + 1]!.getStart(), text: "" });
    else out.push({ start: props[i - 1]!.getEnd(), end: props[j]!.getEnd(), text: "" });
    i = j;
  }
  return out;
}

/** A statement on its own line, with the line; else the statement alone. */
export function lineRemoval(statement: Node): Range {
  const text = statement.getSourceFile().getFullText();
  const start = statement.getStart();
  const end = statement.getEnd();
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", end);
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && lineEnd >= 0 && /^[ \t]*$/.test(text.slice(end, lineEnd))) return { start: lineStart, end: lineEnd + 1, text: "" };
  return { start, end, text: "" };
}

/**
 * Whether removing the name changes this request only: it is written inside the call, or in a
 * variable only this request reads (a shared `URLSearchParams` or params object is left alone).
 */
function removable(written: Node, call: Node): boolean {
  if (written.getAncestors().includes(call)) return true;
  const holder = holderOf(written);
  const name = holder && (holder as any).getNameNode?.();
  if (!name || !Node.isIdentifier(name)) return false;
  const reads = references(name).filter((r) => !isSetterCall(r));
  return reads.length === 1;
}

/** The variable whose value carries the written name: the one it is written into, or the receiver of `.set(…)`. */
function holderOf(written: Node): Node | undefined {
  const setter = written.getParent();
  if (setter && Node.isCallExpression(setter) && !Node.isPropertyAssignment(written)) {
    const access = setter.getExpression();
    let receiver = Node.isPropertyAccessExpression(access) ? unwrapExpression(access.getExpression()) : undefined;
    // `url.searchParams.set(…)`: the URL object holds it.
    if (receiver && Node.isPropertyAccessExpression(receiver) && receiver.getName() === "searchParams") receiver = unwrapExpression(receiver.getExpression());
    const decl = receiver && Node.isIdentifier(receiver) ? receiver.getSymbol()?.getDeclarations()[0] : undefined;
    return decl && Node.isVariableDeclaration(decl) ? decl : undefined;
  }
  return written.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
}

function isSetterCall(ref: Node): boolean {
  let access = ref.getParent();
  if (access && Node.isPropertyAccessExpression(access) && access.getExpression() === ref && access.getName() === "searchParams") (ref = access), (access = access.getParent());
  return !!access && Node.isPropertyAccessExpression(access) && access.getExpression() === ref && ["set", "append", "delete"].includes(access.getName()) && Node.isCallExpression(access.getParent()!);
}
