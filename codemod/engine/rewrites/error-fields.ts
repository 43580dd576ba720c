// Rewrite: v1 error bodies (`{ message }`, `{ error, status }`) are RFC 9457 problems in v2, so a
// read of `.message` / `.error` on an error body becomes `.detail` (`errorFieldMap`).
// Which calls' failures reach a read is error-flow.ts's; whether it reads v2 only or both shapes
// is decided once per read after do no harm (error-reads.ts). This module finds the reads on a
// body value and writes either form.
import { textEdit } from "../text-edit.ts";
import { Node, SyntaxKind, type SourceFile } from "../../ts-morph.ts";
import { errorFieldMap } from "../../../mappings/index.ts";
import type { Edit } from "../../types.ts";
import type { Analysis } from "../state.ts";
import { declarationScope, isDeclarationName, isTypeScriptFile, referencesOf, skipParens } from "../nodes.ts";
import { declaredFieldsOf, renameDeclaredField } from "../declared-types.ts";
import { bind } from "../values.ts";
import { isHttpErrorBody } from "../response-branch.ts";
import { handedTo, type Hop } from "../handed-on.ts";
import { unwrapExpression } from "../urls.ts";
import { isFunctionLike } from "../scope.ts";
import { declarationName, storedAt, type Stored } from "../stored-error-bodies.ts";
import { fallbackFields, guardEdits, guardedField, isBothGuard } from "./error-guards.ts";
import { errorTypeMembers, hasFieldOrAny } from "./error-body-types.ts";
import { schemaName, schemaParseOf, schemaShape } from "../schema-parse.ts";
import { renameErrorMember, widenedAfter } from "./error-members.ts";
import { adapterCall, ADAPTER_BINDING } from "../../adapter/index.ts";
import { useAdapter } from "../adapter-sites.ts";
import { parsedBy } from "../json-parsers.ts";

export type ErrorField = "message" | "error";
/** A read of a v1 error field: `body.message` (a property access) or `{ message }` (a binding element). */
export interface ErrorRead {
  node: Node;
  field: ErrorField;
  /** The functions the body was handed to on its way to the read. */
  hops?: Hop[];
  /** A schema of the app's own that validates the body (`node`) and names v1's `message`. */
  schema?: Node;
}
/** How the body got where it is read, and who hears where it goes out of sight. */
export interface ReadTrail {
  hops: Hop[];
  unfollowed?: (call: Node, why: string) => void;
  /** Hears of the body stored on an object (`new ApiError(status, body)`, `throw { status, body }`): the holder is followed from there. */
  stored?: (s: Stored) => void;
}
/** `convert`: every call reaching the read now answers v2 problems; `both`: some still answer v1 bodies. */
export type ReadMode = "convert" | "both";

const isField = (name: string): name is ErrorField => name === "message" || name === "error";

/**
 * The v1 error-field reads of an error body value: `.message` on it, through a variable, a
 * destructuring, `?? {}` / `&&` / `JSON.parse(…)`, and a function of the project it is handed to.
 * `value` may also be a declaration's name (a parameter that takes the body) or a binding pattern.
 */
export function errorFieldReads(a: Analysis, value: Node, out: ErrorRead[] = [], depth = 0, trail: ReadTrail = { hops: [] }): ErrorRead[] {
  // Each name the body passes through is two steps (the declaration, then its uses).
  if (depth > 10) return out;
  if (Node.isObjectBindingPattern(value)) {
    for (const el of value.getElements()) {
      const key = el.getPropertyNameNode()?.getText() ?? el.getName();
      if (isField(key) && !el.getDotDotDotToken()) out.push({ node: el, field: key, hops: trail.hops });
    }
    return out;
  }
  if (Node.isIdentifier(value) && isDeclarationName(value)) {
    for (const r of referencesOf(declarationScope(value), value)) errorFieldReads(a, r, out, depth + 1, trail);
    return out;
  }
  const outer = skipParens(value);
  const parent = outer.getParent();
  if (!parent) return out;
  const stored = storedAt(a, outer, trail.hops);
  if (stored) trail.stored?.(stored);
  if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === outer) {
    if (isField(parent.getName()) && !isBothForm(parent) && !isWritten(parent)) out.push({ node: parent, field: parent.getName() as ErrorField, hops: trail.hops });
  } else if (Node.isVariableDeclaration(parent) && parent.getInitializer() === outer) {
    errorFieldReads(a, parent.getNameNode(), out, depth + 1, trail);
  } else if (Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
    // `let body; try { body = JSON.parse(text) } catch { body = { message: text } }`: one value,
    // whose v1-shaped stand-ins are written in the form its reads take.
    const target = unwrapExpression(parent.getLeft());
    const decl = parent.getRight() === outer && Node.isIdentifier(target) ? declarationName(target) : undefined;
    if (decl) {
      out.push(...fallbackFields(decl).map((node) => ({ ...node, hops: trail.hops })));
      errorFieldReads(a, decl, out, depth + 1, trail);
    }
  } else if (Node.isBinaryExpression(parent) && guardedField(parent, outer)) {
    // `"message" in body`: the guard of a read, false on every v2 problem.
    if (!isBothGuard(parent)) out.push({ node: parent, field: guardedField(parent, outer)!, hops: trail.hops });
  } else if (Node.isBinaryExpression(parent)) {
    const op = parent.getOperatorToken().getKind();
    // `body ?? {}`, `body || {}` (the body is the left), `res && body` (the right).
    const left = parent.getLeft() === outer;
    if (((op === SyntaxKind.QuestionQuestionToken || op === SyntaxKind.BarBarToken) && left) || (op === SyntaxKind.AmpersandAmpersandToken && !left)) errorFieldReads(a, parent, out, depth + 1, trail);
  } else if (Node.isConditionalExpression(parent) && parent.getCondition() !== outer) {
    errorFieldReads(a, parent, out, depth + 1, trail);
  } else if (Node.isCallExpression(parent) && parsedBy(a, outer) === parent) {
    // `JSON.parse(text)`, or the project's own parser of its first argument (`safeJSON(text)`).
    errorFieldReads(a, parent, out, depth + 1, trail);
  } else if (Node.isCallExpression(parent) && parent.getExpression().getText() === `${ADAPTER_BINDING}.v1Message`) {
    // Already v1's form, whichever API answered (an earlier run's adapter).
  } else if (Node.isCallExpression(parent) && schemaParseOf(outer)?.call === parent) {
    // `ApiErrorSchema.safeParse(body)`: the schema reads the fields it names; one naming v1's fails on a v2 problem.
    const schema = schemaParseOf(outer)!.schema;
    const s = schemaShape(schema);
    const v1 = s.kind === "object" ? [...s.keys.keys()].filter(isField) : [];
    // v1's `{ message }` and nothing else: the adapter hands it a v2 problem as v1's message (`v1Message`, the gateway's).
    if (a.adapter && s.kind === "object" && v1.length && [...s.keys.keys()].every((k) => k === "message")) out.push({ node: outer, field: "message", hops: trail.hops, schema });
    else if (s.kind !== "object" || v1.length) trail.unfollowed?.(parent, `the zod schema ${schemaName(schema)}${v1.length ? ` (it requires ${v1.join(", ")})` : ""}`);
  } else if (Node.isCallExpression(parent) || Node.isNewExpression(parent)) {
    // `describeError(body)`, `new ApiError(status, body)`: its reads of the parameter are reads of the body.
    const to = handedTo(a, outer);
    if (to?.kind === "param") errorFieldReads(a, to.name, out, depth + 1, { ...trail, hops: [...trail.hops, to.hop] });
    else if (to) trail.unfollowed?.(to.call, to.why);
  }
  return out;
}

/** `body.message = …`, `delete body.message`: the code writes the field, it does not read the server's. */
function isWritten(access: Node): boolean {
  const outer = skipParens(access);
  const p = outer.getParent();
  if (p && Node.isBinaryExpression(p) && p.getLeft() === outer) return p.getOperatorToken().getKind() >= SyntaxKind.FirstAssignment && p.getOperatorToken().getKind() <= SyntaxKind.LastAssignment;
  const step = (k: SyntaxKind) => k === SyntaxKind.PlusPlusToken || k === SyntaxKind.MinusMinusToken;
  return !!p && (Node.isDeleteExpression(p) || (Node.isPrefixUnaryExpression(p) && step(p.getOperatorToken())) || Node.isPostfixUnaryExpression(p));
}

/** `(x.detail ?? x.message)` written by an earlier run: already reads both shapes. */
function isBothForm(access: Node): boolean {
  const bin = skipParens(access).getParent();
  if (!bin || !Node.isBinaryExpression(bin) || bin.getOperatorToken().getKind() !== SyntaxKind.QuestionQuestionToken || bin.getRight() !== skipParens(access)) return false;
  const left = unwrapExpression(bin.getLeft());
  const to = errorFieldMap[(access as any).getName() as ErrorField];
  return Node.isPropertyAccessExpression(left) && left.getName() === to;
}

/** The declarations of the field a read's receiver is typed with (`{ message?: string }`, an interface). */
export function readDeclarations(a: Analysis, read: ErrorRead): Node[] {
  if (!Node.isPropertyAccessExpression(read.node)) return [];
  const named = /\.response\??\.(data|body)$/.test(read.node.getExpression().getText().replace(/\s/g, "")) ? errorTypeMembers(a, read.node, read.field) : [];
  return [...(declaredFieldsOf(read.node.getExpression(), read.field) ?? []), ...named];
}

/** The edits that make a read right for `mode`, or why they cannot be written there. */
export function errorReadEdits(a: Analysis, read: ErrorRead, mode: ReadMode): { edits: Edit[] } | { problem: string } {
  const edits: Edit[] = [];
  const file = read.node.getSourceFile().getFilePath();
  // Each edit belongs to the file of the node it changes: a widened declaration may be in another module.
  const put = (n: Node, text: string, start = n.getStart(), end = n.getEnd()) => edits.push(textEdit(n, start, end, text));
  const to = errorFieldMap[read.field];
  const n = read.node;
  // The body handed to the app's schema: v1Message gives v2's problem v1's `{ message }` and leaves a v1 body's message as it is.
  if (read.schema) {
    if (!a.adapter) return { problem: "the boundary adapter is off" };
    useAdapter(a, a.files.get(file)!);
    const [open, close] = adapterCall("problem", "", "\0").split("\0") as [string, string];
    put(n, open, n.getStart(), n.getStart());
    put(n, close, n.getEnd(), n.getEnd());
    return { edits };
  }
  // `"message" in body`, and a v1-shaped stand-in `{ message: text }`.
  const guard = guardEdits(n, to, mode);
  if (guard) {
    for (const [node, text] of guard) put(node, text);
    return { edits };
  }
  // `fail(op, (await res.json()) as { message?: string })`: a type written at a call the body went through follows the read.
  if (mode === "convert") for (const hop of read.hops ?? []) renameInlineField(a, hop.arg, read.field, to, put);
  if (Node.isPropertyAccessExpression(n)) {
    if (mode === "convert") {
      // `b.message ?? b.error`: both v1 fields are v2's one `detail`, read once.
      const twin = twinRead(n, to);
      if (twin) {
        put(n, "", twin.getEnd(), n.getEnd());
        return { edits };
      }
      put(n.getNameNode(), to);
      // `as { message?: string }`, `AxiosError<{ message: string }>`: the declared error type follows the read.
      renameDeclaredField(a, n.getExpression(), read.field, to, (d, text) => renameErrorMember(d, text, put));
      if (/\.response\??\.(data|body)$/.test(n.getExpression().getText().replace(/\s/g, ""))) errorTypeLiteral(a, n, read.field, put);
      return { edits };
    }
    const receiver = n.getExpression();
    if (!duplicable(receiver)) {
      // `(await res.json()).message`: read once, handed to an arrow that reads both fields (its parameter takes the receiver's type).
      if (isTypeScriptFile(file) && !hasFieldOrAny(a, receiver, to)) return { problem: `its receiver (${short(receiver)}) is computed where it is read, so it cannot be read twice` };
      const q = n.hasQuestionDotToken() ? "?." : ".";
      let inner: Node = receiver;
      while (Node.isParenthesizedExpression(inner)) inner = inner.getExpression();
      put(n, `((body) => body${q}${to} ?? body${q}${read.field})(${inner.getText()})`);
      return { edits };
    }
    const dot = n.hasQuestionDotToken() ? "?." : ".";
    // A receiver typed without the v2 field: its type literal or interface of the run gains it
    // (optional), else the read goes through a cast, so the line still type-checks. A type
    // literal written in the read itself (`(body as { message: string }).message`) is widened in
    // both copies of the read, not by an edit inside the one replaced.
    const typed = isTypeScriptFile(file) && !hasFieldOrAny(a, receiver, to);
    const inline: { pos: number; text: string }[] = [];
    const within = (d: Node, start?: number) => d.getSourceFile() === n.getSourceFile() && start !== undefined && start >= n.getStart() && start <= n.getEnd();
    const widened = typed && widenDeclared(a, receiver, read.field, to, (d, text, start, end) => (within(d, start) ? void inline.push({ pos: start!, text }) : put(d, text, start, end)));
    const spliced = (node: Node) => inline.filter((i) => i.pos >= node.getStart() && i.pos <= node.getEnd()).sort((x, y) => y.pos - x.pos).reduce((t, i) => t.slice(0, i.pos - node.getStart()) + i.text + t.slice(i.pos - node.getStart()), node.getText());
    const r = spliced(receiver);
    const v2 = typed && !widened ? `(${r} as { ${to}?: string } | null | undefined)?.${to}` : `${r}${dot}${to}`;
    const both = `${v2} ?? ${spliced(n)}`;
    // `if (b.message) m = b.message`: TypeScript narrows the read, not `(b.detail ?? b.message)`;
    // the condition proved the same expression set, which the assertion says again.
    const asserted = isTypeScriptFile(file) && testedAbove(n);
    put(n, asserted ? `(${both})!` : standsAlone(n) ? both : `(${both})`);
    return { edits };
  }
  if (!Node.isBindingElement(n)) return { problem: "it is not a field read the codemod can rewrite" };
  const prop = n.getPropertyNameNode();
  if (mode === "convert") {
    if (prop) put(prop, to);
    else put(n, `${to}: `, n.getStart(), n.getStart());
    // `const { message } = body as { message: string }`: the declared type follows the read.
    renameDeclaredField(a, n.getParent()!, read.field, to, (d, text) => renameErrorMember(d, text, put));
    renameTypeArgument(n, read.field, to, put);
    return { edits };
  }
  // `{ message }` → `{ detail: message = body.message }`: v2's field, else v1's.
  const source = destructuredSource(n);
  if (!source) return { problem: "it is destructured from a value that cannot be read again there (a parameter, or a value computed in place)" };
  if (isTypeScriptFile(file) && !hasFieldOrAny(a, source.node, to, source.path)) return { problem: `the destructured value is typed without the v2 field ${to}` };
  const init = n.getInitializer();
  const v1 = `${source.text}${source.path.map((k) => `.${k}`).join("")}.${read.field}`;
  put(n, `${to}: ${n.getNameNode().getText()} = ${init ? `${v1} ?? (${init.getText()})` : v1}`);
  return { edits };
}

/** The field of a type written inside `arg` itself (a cast at the call), renamed; a type declared elsewhere is left to its own reads. */
function renameInlineField(a: Analysis, arg: Node, from: string, to: string, put: (n: Node, text: string, start?: number, end?: number) => void): void {
  const decls = declaredFieldsOf(arg, from) ?? [];
  const inside = (d: Node) => d.getSourceFile() === arg.getSourceFile() && d.getStart() >= arg.getStart() && d.getEnd() <= arg.getEnd();
  if (decls.length && decls.every(inside)) renameDeclaredField(a, arg, from, to, (d, text) => renameErrorMember(d, text, put));
}

/**
 * `const { message } = await err.response.json<{ message: string }>()`: the type written at the call
 * follows the read, where the checker did not see it as the value's type (a package's types are
 * not loaded: the call is `any` to the codemod, not to the project's compiler).
 */
function renameTypeArgument(n: Node, from: string, to: string, put: (n: Node, text: string, start?: number, end?: number) => void): void {
  const decl = n.getParent()?.getParent();
  let init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  for (;;) {
    if (init && (Node.isAwaitExpression(init) || Node.isParenthesizedExpression(init))) init = init.getExpression();
    else if (init && Node.isBinaryExpression(init) && ["??", "||"].includes(init.getOperatorToken().getText())) {
      // `… ?? { message: "" }`: the stand-in for the body is read the same way.
      const right = init.getRight();
      const key = Node.isObjectLiteralExpression(right) ? right.getProperty(from) : undefined;
      if (key && Node.isPropertyAssignment(key)) put(key.getNameNode(), to);
      init = init.getLeft();
    } else break;
  }
  if (!init || !Node.isCallExpression(init)) return;
  const seen = new Set(declaredFieldsOf(decl!, from) ?? []);
  for (const t of init.getTypeArguments()) {
    const member = Node.isTypeLiteral(t) ? t.getProperty(from) : undefined;
    if (member && !seen.has(member)) renameErrorMember(member.getNameNode(), to, put);
  }
}

/** Whether `a ?? b` can replace the node without parentheses (an argument, an initializer, a `??` operand, …). */
function standsAlone(n: Node): boolean {
  const outer = skipParens(n);
  if (outer !== n) return Node.isParenthesizedExpression(n.getParent());
  const p = n.getParent();
  if (!p) return false;
  if (Node.isBinaryExpression(p)) return p.getOperatorToken().getKind() === SyntaxKind.QuestionQuestionToken;
  if (Node.isCallExpression(p) || Node.isNewExpression(p)) return p.getExpression() !== n;
  if (Node.isConditionalExpression(p)) return p.getCondition() !== n;
  return Node.isVariableDeclaration(p) || Node.isReturnStatement(p) || Node.isTemplateSpan(p) || Node.isPropertyAssignment(p) || Node.isArrayLiteralExpression(p) || Node.isJsxExpression(p);
}

/** `{ message?: string }` → `{ message?: string; detail?: string }` where the receiver's field is declared in the run. */
function widenDeclared(a: Analysis, receiver: Node, v1: string, v2: string, put: (n: Node, text: string, start?: number, end?: number) => void): boolean {
  const decls = declaredFieldsOf(receiver, v1) ?? [];
  const inRun = (d: Node) => Node.isPropertySignature(d) && a.files.has(d.getSourceFile().getFilePath()) && !d.getSourceFile().isDeclarationFile();
  if (!decls.length || !decls.every(inRun)) return false;
  for (const field of decls) {
    // One v2 field per type, however many of its v1 fields are read.
    const d = widenedAfter(field, v2);
    if (!d) continue;
    const text = d.getText();
    // On a line of its own, indented as the field, where the field has its own line.
    const sf = d.getSourceFile();
    const lineStart = sf.getFullText().lastIndexOf("\n", d.getStart() - 1) + 1;
    const indent = sf.getFullText().slice(lineStart, d.getStart());
    const sep = /^[ \t]*$/.test(indent) ? `\n${indent}` : " ";
    put(d, /[;,]$/.test(text) ? `${sep}${v2}?: string;` : `;${sep}${v2}?: string`, d.getEnd(), d.getEnd());
  }
  return true;
}

/** An expression that can be written twice with the same value: names, property reads, `x ?? {}`. */
function duplicable(expr: Node): boolean {
  const n = unwrapExpression(expr);
  if (Node.isIdentifier(n) || n.getKind() === SyntaxKind.ThisKeyword) return true;
  if (Node.isPropertyAccessExpression(n)) return duplicable(n.getExpression());
  if (Node.isObjectLiteralExpression(n)) return n.getProperties().length === 0;
  if (Node.isBinaryExpression(n) && [SyntaxKind.QuestionQuestionToken, SyntaxKind.BarBarToken].includes(n.getOperatorToken().getKind())) return duplicable(n.getLeft()) && duplicable(n.getRight());
  return false;
}

function short(n: Node): string {
  const t = n.getText().replace(/\s+/g, " ");
  return t.length > 40 ? `${t.slice(0, 37)}…` : t;
}

/** Where a destructured element's value comes from: `const { a: { message } } = x` → x, path [a]. */
function destructuredSource(el: Node): { node: Node; text: string; path: string[] } | undefined {
  const path: string[] = [];
  let pattern = el.getParent();
  for (;;) {
    const holder = pattern?.getParent();
    if (!holder) return undefined;
    if (Node.isVariableDeclaration(holder)) {
      const init = holder.getInitializer();
      if (!init || !duplicable(init)) return undefined;
      const u = unwrapExpression(init);
      return { node: u, text: Node.isBinaryExpression(u) ? `(${u.getText()})` : u.getText(), path };
    }
    if (!Node.isBindingElement(holder) || holder.getInitializer()) return undefined;
    const key = holder.getPropertyNameNode();
    if (!key || !Node.isIdentifier(key)) return undefined;
    path.unshift(key.getText());
    pattern = holder.getParent();
  }
}

/** `const e = err as AxiosError<{ message: string }>` (or `<RunpodError>`, an interface of the run): the error body's declared field follows the read. */
function errorTypeLiteral(a: Analysis, access: Node, name: ErrorField, put: (n: Node, text: string, start?: number, end?: number) => void): void {
  for (const member of errorTypeMembers(a, access, name)) renameErrorMember((member as any).getNameNode(), errorFieldMap[name], put);
}

/** The left of `b.message ?? b.error` (or `||`) where `read` is the right: a read of the same receiver that becomes the same v2 field. */
function twinRead(read: Node, to: string): Node | undefined {
  const bin = read.getParent();
  if (!bin || !Node.isBinaryExpression(bin) || bin.getRight() !== read || !Node.isPropertyAccessExpression(read)) return undefined;
  if (![SyntaxKind.QuestionQuestionToken, SyntaxKind.BarBarToken].includes(bin.getOperatorToken().getKind())) return undefined;
  const left = bin.getLeft();
  if (!Node.isPropertyAccessExpression(left) || left.getExpression().getText() !== read.getExpression().getText()) return undefined;
  const name = left.getName();
  return name === to || ((name === "message" || name === "error") && errorFieldMap[name] === to) ? left : undefined;
}

/**
 * Error bodies of caught HTTP client errors in a file, by their shape (`x.response.data`, a caught
 * error's `response.body` / `response.json()`): what a file calling v1 reads when no call's
 * failure path was followed to it (its catch is elsewhere in the file).
 */
export function caughtBodiesByShape(sf: SourceFile): Node[] {
  const out: Node[] = [];
  for (const n of sf.getDescendants()) {
    if (Node.isPropertyAccessExpression(n) && isField(n.getName())) {
      const inner = n.getExpression();
      const text = inner.getText().replace(/\?\./g, ".").replace(/\s/g, "");
      // got's parsed `error.response.body` only on a caught error (a got response has `.body` too).
      if (/\.response\.data$/.test(text) || (/\.response\.body$/.test(text) && isHttpErrorBody(inner))) out.push(inner);
      continue;
    }
    // A caught error's body kept in a variable (`const body = err.response?.data`), and ky / got
    // `HTTPError` bodies: `await error.response.json()`, `JSON.parse(error.response.body)`.
    if (Node.isPropertyAccessExpression(n) && Node.isVariableDeclaration(skipParens(n).getParent()) && isHttpErrorBody(n)) out.push(n);
    const call = Node.isAwaitExpression(n) ? unwrapExpression(n.getExpression()) : undefined;
    if (call && Node.isCallExpression(call) && call.getExpression().getText().endsWith("json") && isHttpErrorBody(n)) out.push(n);
    const [arg] = Node.isCallExpression(n) && n.getExpression().getText() === "JSON.parse" ? n.getArguments() : [];
    if (arg && isHttpErrorBody(arg)) out.push(n);
  }
  return out;
}

/** A read inside the then-branch of an `if` whose condition reads the same expression (a truthiness or type test). */
function testedAbove(n: Node): boolean {
  const text = n.getText();
  for (let child: Node = n, up = n.getParent(); up; child = up, up = up.getParent()) {
    if (Node.isIfStatement(up) && up.getThenStatement() === child) {
      const cond = up.getExpression();
      return [cond, ...cond.getDescendants()].some((d) => d.getText() === text && Node.isPropertyAccessExpression(d));
    }
    if (Node.isConditionalExpression(up) && up.getWhenTrue() === child) {
      const cond = up.getCondition();
      return [cond, ...cond.getDescendants()].some((d) => d.getText() === text && Node.isPropertyAccessExpression(d));
    }
    if (isFunctionLike(up) || Node.isSourceFile(up)) return false;
  }
  return false;
}
