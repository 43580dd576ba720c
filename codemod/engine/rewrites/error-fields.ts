// Rewrite: v1 error bodies (`{ message }`, `{ error, status }`) are RFC 9457 problems in v2, so
// reads of `.message` / `.error` on a v1 call's response body become `.detail` / `.title`
// (`errorFieldMap` in the table), destructuring included, and axios/got `err.response.data.message`.
import { Node, SyntaxKind, type SourceFile } from "../../ts-morph.ts";
import { errorFieldMap } from "../../../mappings/index.ts";
import { enclosingFunction } from "../scope.ts";
import { edit, type Analysis, type Plan } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { bodySites } from "../body-sites.ts";
import { referencesOf, skipParens } from "../nodes.ts";
import { renameDeclaredField } from "../declared-types.ts";
import { bind } from "../values.ts";
import { describeRead, isHttpErrorBody } from "../response-branch.ts";
import { unwrapExpression } from "../urls.ts";

export function errorReads(plan: Plan, http: HttpCall): void {
  for (const site of bodySites(plan.a, http)) {
    if (site.kind !== "value") continue;
    // No error status reaches this read: it is the record, with no v1 error field to rename.
    if (!describeRead(site.node).errorReachable) continue;
    errorBodyReads(plan, site.node);
  }
}

/** `.message` / `.error` reads of an error body value: directly, through a variable, destructured. */
function errorBodyReads(plan: Plan, value: Node): void {
  const outer = skipParens(value);
  const parent = outer.getParent();
  if (parent && Node.isPropertyAccessExpression(parent)) renameErrorField(plan, parent);
  if (parent && Node.isVariableDeclaration(parent)) {
    const name = parent.getNameNode();
    if (Node.isIdentifier(name)) {
      for (const r of referencesOf(enclosingFunction(parent), name)) {
        const rp = r.getParent();
        if (rp && Node.isPropertyAccessExpression(rp) && rp.getExpression() === r) renameErrorField(plan, rp);
      }
    } else if (Node.isObjectBindingPattern(name)) {
      for (const el of name.getElements()) {
        const propName = el.getPropertyNameNode();
        const key = propName?.getText() ?? el.getName();
        const to = (errorFieldMap as Record<string, string>)[key];
        if (!to || key === "status") continue;
        if (propName) edit(plan, propName, { start: propName.getStart(), end: propName.getEnd(), text: to });
        else edit(plan, el, { start: el.getStart(), end: el.getStart(), text: `${to}: ` });
      }
    }
  }
}

function renameErrorField(plan: Plan, access: Node): void {
  if (!Node.isPropertyAccessExpression(access)) return;
  const name = access.getName();
  if (name !== "message" && name !== "error") return;
  const nn = access.getNameNode();
  edit(plan, nn, { start: nn.getStart(), end: nn.getEnd(), text: errorFieldMap[name] });
  // `as { message?: string }`: the declared error type follows the read.
  renameDeclaredField(plan.a, access.getExpression(), name, errorFieldMap[name], (n, text) => edit(plan, n, { start: n.getStart(), end: n.getEnd(), text }));
}

/** axios / got / ky errors: `err.response.data.message` → `.detail`, in a file that calls v1. */
export function httpErrorReads(plan: Plan, sf: SourceFile): void {
  for (const n of sf.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
    const name = n.getName();
    if (name !== "message" && name !== "error") continue;
    const inner = n.getExpression().getText().replace(/\?\./g, ".").replace(/\s/g, "");
    // got's parsed `error.response.body` only on a caught error (a got response has `.body` too).
    if (!/\.response\.data$/.test(inner) && !(/\.response\.body$/.test(inner) && isHttpErrorBody(n.getExpression()))) continue;
    renameErrorField(plan, n);
    errorTypeLiteral(plan, n, name);
  }
  // A caught error's body kept in a variable (`const body = err.response?.data`), and ky / got
  // `HTTPError` bodies: `await error.response.json()`, `JSON.parse(error.response.body)`.
  for (const n of sf.getDescendants()) {
    if (Node.isPropertyAccessExpression(n) && Node.isVariableDeclaration(skipParens(n).getParent()) && isHttpErrorBody(n)) errorBodyReads(plan, n);
    const call = Node.isAwaitExpression(n) ? unwrapExpression(n.getExpression()) : undefined;
    if (call && Node.isCallExpression(call) && call.getExpression().getText().endsWith("json") && isHttpErrorBody(n)) errorBodyReads(plan, n);
    const [arg] = Node.isCallExpression(n) && n.getExpression().getText() === "JSON.parse" ? n.getArguments() : [];
    if (arg && isHttpErrorBody(arg)) errorBodyReads(plan, n);
  }
}

/** `const e = err as AxiosError<{ message: string }>`: the error body's declared field follows the read. */
function errorTypeLiteral(plan: Plan, access: Node, name: "message" | "error"): void {
  let root: Node = access;
  while (Node.isPropertyAccessExpression(root)) root = root.getExpression();
  if (!Node.isIdentifier(root)) return;
  const b = bind(plan.a, root);
  if (b?.kind !== "var" && b?.kind !== "param" && b?.kind !== "catch") return;
  const decl = b.decl as any;
  const init = b.kind === "var" ? b.init : undefined;
  const typeNode: Node | undefined = decl.getTypeNode?.() ?? (init && Node.isAsExpression(init) ? init.getTypeNode() : undefined);
  if (!typeNode) return;
  for (const lit of typeNode.getDescendantsOfKind(SyntaxKind.TypeLiteral)) {
    const member = lit.getProperty(name);
    if (member) edit(plan, member.getNameNode(), { start: member.getNameNode().getStart(), end: member.getNameNode().getEnd(), text: errorFieldMap[name] });
  }
}
