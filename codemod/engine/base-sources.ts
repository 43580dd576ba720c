// Base sources: every string in the project that names the v1 host. A base on its own
// (`"https://rest.runpod.io/v1"`) is registered as a source whose flip to v2 waits for the
// do-no-harm check; an environment default (`process.env.X ?? "…/v1"`) flips to a new variable
// `X_V2`. A full v1 URL outside any recognised call is rewritten where it names one operation
// and marked either way (the codemod cannot see how it is sent).
import { readFirstFromEnv } from "./evaluate/config-keys.ts";
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { V1_HOST, V2_BASE } from "../../mappings/bases.ts";
import { isBaseOnly, isDynamicPath, locate, resolveParts, v2BaseFor } from "./urls.ts";
import { rewriteUrl } from "./url-rewrite.ts";
import type { Category, Finding } from "../types.ts";
import { addFinding, planFor, fileOf, siteEdits, type Analysis, type Site } from "./state.ts";
import { bind, sourceLiterals, urlContext } from "./values.ts";
import { todo } from "./todo-marks.ts";
import { isDeclaredV1Base, v1Redirect } from "./v1-redirect.ts";
import { newPathFor, uniqueMatches } from "./v1-match.ts";
import { concatenationOf, skipParens } from "./nodes.ts";
import { replaceNode } from "./text-edit.ts";
import { hostPathOf } from "./host-path.ts";
import { envKey, envRead } from "./env-reads.ts";
import { methodBeside } from "./relative-routes.ts";
import { keptV1CallAt } from "./kept-v1-calls.ts";
import { candidateLoop, type CandidateLoop } from "./candidate-urls.ts";


/** How an environment read (`BaseSource.env`, `Deno.env.X` for Deno's getter) is written, with `suffix` on its name. */
export function envShown(env: string, suffix = ""): string {
  return env.startsWith("Deno.env.") ? `Deno.env.get("${env.slice("Deno.env.".length)}${suffix}")` : `${env}${suffix}`;
}

export function scanLiterals(a: Analysis, sf: SourceFile): void {
  const literals: Node[] = [
    ...sf.getDescendantsOfKind(SyntaxKind.StringLiteral),
    ...sf.getDescendantsOfKind(SyntaxKind.NoSubstitutionTemplateLiteral),
    ...sf.getDescendantsOfKind(SyntaxKind.TemplateHead),
  ].sort((x, y) => x.getStart() - y.getStart());
  for (const n of literals) literal(a, n);
}

function literal(a: Analysis, n: Node): void {
  const value = Node.isTemplateHead(n) ? n.getLiteralText() : ((n as any).getLiteralValue() as string);
  if (!value.includes(V1_HOST)) return;
  if ((Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) && isBaseOnly(value)) return registerBase(a, n, value);
  if (a.consumed.has(n)) return;
  // Inside a call an earlier run kept whole on the declared v1 base, under its mark: kept as written
  // (its mark is read back, todo-marks.ts), not made a site of its own that a second run would rewrite.
  if (keptV1CallAt(n)?.getDescendants().includes(n)) return;
  const expr = concatenationOf(Node.isTemplateHead(n) ? n.getParent()! : n);
  if (Node.isImportDeclaration(expr.getParent() ?? expr)) return;
  const parts = resolveParts(expr, urlContext(a));
  const url = locate(parts, undefined);
  parts.forEach((p) => a.consumed.add(p.node));
  const deps = new Set<Node>();
  if (url?.anchor?.node) for (const s of sourceLiterals(a, url.anchor.node)) deps.add(s);
  const site: Site = { call: n, file: fileOf(a, n), deps, edits: [], complete: false };
  const finish = (op: string | null, category: Category, reason: string, advice: string, v1: Finding["v1"] = null, v2: Finding["v2"] = null) => {
    todo(a, n, op ?? "base", category, reason, advice);
    site.finding = addFinding(a, n, { operation: op, v1, v2, category, reason, advice, ...(op ? {} : { subject: "url" as const }) });
    site.whole = true;
    if (url) site.redirect = v1Redirect(url, parts, n);
    a.sites.push(site);
  };
  const plan = planFor(a, site);
  const split = url ? undefined : hostPathOf(a, n);
  if (split?.path) {
    split.parts.forEach((p) => a.consumed.add(p.node));
    const op = split.operations.length === 1 ? split.operations[0]! : null;
    const reason = `a request to the v1 host with the path ${split.path} written apart (${op ? `v1 ${op.key}` : "operation not known"}), not a call the codemod rewrites`;
    const noEq = op?.status === "no-equivalent";
    return finish(op?.key ?? null, noEq ? "no-equivalent" : "review", noEq ? op!.decision?.message ?? reason : reason, noEq ? op!.decision?.advice ?? "see docs/mapping.md" : `send it to ${V2_BASE} with its v2 path, method and body by hand (docs/mapping.md)`, op ? { method: op.v1.method, path: op.v1.path } : null, op?.v2 ? { method: op.v2.method, path: op.v2.path } : null);
  }
  if (!url || url.problem || isDynamicPath(url) || url.path === "") {
    const apart = split?.computed && `the v1 host of a request whose path is computed (${split.computed.length > 40 ? split.computed.slice(0, 37) + "…" : split.computed}): each call's v1 path is counted where it is written`;
    const reason = url?.problem ?? (url ? "a v1 URL built at run time, not passed to a recognised HTTP call" : apart || "string mentions the v1 host");
    return finish(null, "review", reason, `check whether it is a v1 API address and use the v2 base ${V2_BASE}`);
  }
  const cands = uniqueMatches(url.path);
  const paths = new Set(cands.map((c) => newPathFor(c, url)));
  // An entry of a list of URLs a loop sends through its variable (candidate-urls.ts).
  const loop = cands.length ? candidateLoop(expr) : undefined;
  // The method written beside the URL in the call it is handed to (`request(url, { method: "DELETE" })`) names which one.
  const method = cands.length > 1 ? methodBeside(expr) ?? (loop && methodBeside(loop.argument)) : undefined;
  const named = method ? cands.filter((c) => c.operation.v1.method === method) : [];
  const told = named.length ? named : cands;
  const keys = told.map((c) => c.operation.key).join(" / ");
  const single = told.length === 1 ? told[0]!.operation : null;
  const reason = loop ? loopReason(a, loop, keys) : cands.length ? `v1 URL not passed to a recognised HTTP call (v1 ${keys})` : `${url.path.replace(/\0/g, "{…}")} is not a v1 operation path`;
  const v1 = single ? { method: single.v1.method, path: single.v1.path } : null;
  if (cands.length && paths.size === 1 && [...paths][0] !== null && cands.every((c) => c.operation.v2)) {
    siteEdits(plan, rewriteUrl(url, [...paths][0]!) ?? []);
    const v2 = single?.v2 ? { method: single.v2.method, path: single.v2.path } : null;
    return finish(single?.key ?? cands[0]!.operation.key, "review", reason, "check the HTTP method, request body and response shape against v2 (docs/mapping.md)", v1, v2);
  }
  const noEq = single && single.status === "no-equivalent";
  finish(single?.key ?? null, noEq ? "no-equivalent" : "review", noEq ? single!.decision?.message ?? reason : reason, noEq ? single!.decision?.advice ?? "see docs/mapping.md" : "rewrite it by hand (docs/mapping.md)", v1);
}

/** Why an entry of a loop's candidate URLs stays: the loop sends every entry, those that are no v1 route named. */
function loopReason(a: Analysis, loop: CandidateLoop, keys: string): string {
  const paths = loop.others.flatMap((e) => {
    const other = locate(resolveParts(e, urlContext(a)), undefined);
    return other ? [{ path: other.path.replace(/\0/g, "{…}"), route: uniqueMatches(other.path).length > 0 }] : [];
  });
  const noRoute = paths.filter((p) => !p.route).map((p) => p.path);
  const sent = `sent by the loop's one ${loop.sentBy}(${loop.variable}) (v1 ${keys})`;
  if (noRoute.length) return `tried in a loop over ${loop.list} beside paths v1 does not have (${noRoute.join(", ")}): one v2 request cannot stand for the loop, ${sent}`;
  return `tried in a loop over ${loop.list} with other v1 routes (${paths.map((p) => p.path).join(", ")}): each needs its own v2 method and body, ${sent}`;
}

/** A base on its own: its flip (and the env variable rename) is prepared, not applied. */
function registerBase(a: Analysis, n: Node, value: string): void {
  const quote = n.getText()[0]!;
  const flip = [replaceNode(n, `${quote}${v2BaseFor(value)}${quote}`)];
  if (isDeclaredV1Base(n)) {
    a.bases.set(n, { literal: n, file: fileOf(a, n), flip: [], pinned: true });
    return;
  }
  const parent = skipParens(n).getParent();
  let env: string | undefined;
  if (parent && Node.isBinaryExpression(parent) && parent.getRight() === skipParens(n) && ["??", "||"].includes(parent.getOperatorToken().getText())) {
    const left = parent.getLeft();
    const m = envRead(left.getText());
    const or = parent.getOperatorToken().getText() === "||";
    if (!m) {
      a.bases.set(n, { literal: n, file: fileOf(a, n), flip, override: left.getText().replace(/\s+/g, " "), ...kitBase(a, left, or) });
      return;
    }
    // A configuration factory's key the configuration service reads from the environment first: no rename moves it.
    const first = m && readFirstFromEnv(parent);
    if (m && first) {
      const vars = [...new Set([first, m.name])].map((v) => `the environment variable ${v}`).join(", ");
      a.bases.set(n, { literal: n, file: fileOf(a, n), flip, override: vars });
      return;
    }
    if (m) {
      const name = m.name;
      env = envKey(m);
      // The rename: `process.env.X` → `process.env.X_V2` (or the bracketed or the getter's string).
      const read = skipParens(left);
      const nameNode = Node.isPropertyAccessExpression(read) ? read.getNameNode() : Node.isElementAccessExpression(read) ? read.getArgumentExpression() : Node.isCallExpression(read) ? read.getArguments()[0] : undefined;
      if (nameNode) {
        const text = Node.isStringLiteral(nameNode) ? `${nameNode.getText()[0]}${name}_V2${nameNode.getText()[0]}` : `${name}_V2`;
        flip.push(replaceNode(nameNode, text));
      }
    }
  }
  a.bases.set(n, { literal: n, file: fileOf(a, n), flip, env, or: env ? parent && Node.isBinaryExpression(parent) && parent.getOperatorToken().getText() === "||" : undefined });
}

/** The `$env` variable of a SvelteKit base, and its operator (only an environment variable can be set empty). */
function kitBase(a: Analysis, left: Node, or: boolean): { kitEnv?: string; or?: boolean } {
  const kitEnv = kitEnvRead(a, left);
  return kitEnv ? { kitEnv, or } : {};
}

/** SvelteKit's environment modules: `RUNPOD_API_BASE` imported from `$env/static/private`, or `env.RUNPOD_API_BASE` of `$env/dynamic/private`. */
function kitEnvRead(a: Analysis, left: Node): string | undefined {
  const read = skipParens(left);
  const id = Node.isPropertyAccessExpression(read) ? read.getExpression() : read;
  if (!Node.isIdentifier(id)) return undefined;
  const b = bind(a, id);
  if (b?.kind !== "import") return undefined;
  if (/^\$env\/static\/(private|public)$/.test(b.module) && id === read) return b.name;
  if (/^\$env\/dynamic\/(private|public)$/.test(b.module) && b.name === "env" && Node.isPropertyAccessExpression(read)) return read.getName();
  return undefined;
}
