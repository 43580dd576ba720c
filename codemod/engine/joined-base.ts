// What a path handed to a project function is joined onto inside it: `ping(joinUrl(env.APP_URL, "/docs"))`
// with `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}` in `joinUrl`. The recall net
// (recall-net.ts) asks it of a v1-looking literal: one joined onto the v2 base is a v2 call, and one
// joined onto another host, or onto an environment variable no v1 base reads, is that API's path, not
// a v1 site. The base is read at this call when it is one of the function's parameters (each caller
// gives its own), in the function otherwise.
import { V1_HOST, V2_BASE } from "../../mappings/bases.ts";
import { Node, SyntaxKind } from "../ts-morph.ts";
import { optionsOf, type Value } from "./evaluate/value.ts";
import { baseIn } from "./evaluate/bases.ts";
import { functionNamed } from "./record-callees.ts";
import type { Analysis } from "./state.ts";
import { unwrapExpression } from "./urls.ts";

export type JoinedOnto = "v2" | "elsewhere";

/** The identifier an expression is built on (`path` of `path.replace(…).trim()`), if any. */
function rootName(e: Node): string | undefined {
  let cur: Node = unwrapExpression(e);
  for (;;) {
    if (Node.isCallExpression(cur)) cur = unwrapExpression(cur.getExpression());
    else if (Node.isPropertyAccessExpression(cur)) cur = unwrapExpression(cur.getExpression());
    else break;
  }
  return Node.isIdentifier(cur) ? cur.getText() : undefined;
}

/** The pieces of a `+` concatenation, left to right, each unwrapped of parentheses, `as` and `!`. */
export function plusPieces(e: Node): Node[] {
  const u = unwrapExpression(e);
  if (Node.isBinaryExpression(u) && u.getOperatorToken().getKind() === SyntaxKind.PlusToken) return [...plusPieces(u.getLeft()), ...plusPieces(u.getRight())];
  return [u];
}

/**
 * The expressions a URL is built on in `fn` where a later piece is made from `name` (`${base}${name}`,
 * `base + name`), and the base a template writes out at its head (`\`https://api.runpod.io/v2${name}\``).
 */
function basesJoinedTo(fn: Node, name: string): Node[] {
  const out: Node[] = [];
  for (const t of fn.getDescendantsOfKind(SyntaxKind.TemplateExpression)) {
    const spans = t.getTemplateSpans();
    const head = t.getHead();
    if (head.getLiteralText() === "" && spans.slice(1).some((s) => rootName(s.getExpression()) === name)) out.push(spans[0]!.getExpression());
    else if (/^https?:\/\/[^/]/.test(head.getLiteralText()) && rootName(spans[0]!.getExpression()) === name) out.push(head);
  }
  for (const b of fn.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
    if (b.getOperatorToken().getKind() !== SyntaxKind.PlusToken || Node.isBinaryExpression(b.getParent())) continue;
    const pieces = plusPieces(b);
    if (pieces.length > 1 && !Node.isStringLiteral(pieces[0]!) && pieces.slice(1).some((p) => rootName(p) === name)) out.push(pieces[0]!);
  }
  return out;
}

/** The environment variables whose default is a v1 base of the run (`process.env.RUNPOD_API ?? "https://rest.runpod.io/v1"`). */
function v1EnvNames(a: Analysis): Set<string> {
  const out = new Set<string>();
  for (const b of a.bases.values()) for (const n of [b.env, b.kitEnv]) if (n) out.add(n.replace(/^process\.env\./, ""));
  return out;
}

function classify(a: Analysis, v: Value): JoinedOnto | undefined {
  const options = optionsOf(v);
  if (options.some((o) => o.kind === "string" && o.text.replace(/\/+$/, "") === V2_BASE)) return "v2";
  if (baseIn(v)) return undefined;
  const v1Env = v1EnvNames(a);
  const url = (t: string) => /^https?:\/\//.test(t);
  const other = (o: Value) => (o.kind === "env" && !v1Env.has(o.name)) || (o.kind === "string" && !o.text.includes(V1_HOST) && (o.text === "" || url(o.text)));
  const named = options.some((o) => o.kind === "env" || (o.kind === "string" && url(o.text)));
  return options.length && named && options.every(other) ? "elsewhere" : undefined;
}

/** Where the path argument `literal` of a call to a project function is joined onto a base that is not v1's. */
export function joinedOnto(a: Analysis, literal: Node): JoinedOnto | undefined {
  const call = literal.getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const args = call.getArguments();
  const index = args.indexOf(literal as never);
  const fn = index < 0 ? undefined : functionNamed(a, call.getExpression());
  const params = (fn as { getParameters?(): Node[] } | undefined)?.getParameters?.() ?? [];
  const param = params[index];
  const name = param && Node.isParameterDeclaration(param) ? param.getNameNode() : undefined;
  if (!fn || !name || !Node.isIdentifier(name)) return undefined;
  const names = params.map((p) => (Node.isParameterDeclaration(p) && Node.isIdentifier(p.getNameNode()) ? p.getNameNode().getText() : undefined));
  for (const base of basesJoinedTo(fn, name.getText())) {
    // A parameter is what this caller hands in (its default when it hands in nothing); anything else is the function's own.
    const root = rootName(base);
    const at = root === undefined ? -1 : names.indexOf(root);
    const given = at >= 0 ? args[at] ?? (params[at] as { getInitializer?(): Node | undefined }).getInitializer?.() : undefined;
    const source = at >= 0 && at !== index ? given : at < 0 ? base : undefined;
    if (!source) continue;
    try {
      // A head the template writes out is its own text (the path follows it directly).
      const value: Value = Node.isTemplateHead(source) ? { kind: "string", text: source.getLiteralText(), node: source } : a.evaluator.evaluate(source);
      const found = classify(a, value);
      if (found) return found;
    } catch {
      /* not known: counted */
    }
  }
  return undefined;
}
