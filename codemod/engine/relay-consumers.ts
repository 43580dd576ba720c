// Who fetches a relay route of the app, and what they read of it. The files of the relay's package
// are searched for requests to the route (`fetch("/api/pods")`, `$fetch`, `useFetch`, axios, with
// the URL's constants and templates read in the file: `` `/api/pods/${id}` `` for `[id]`); each is
// followed to its reads (consumer-reads.ts). Undecided, so the caller falls back to the
// project-wide word search, when: a request's URL is built at run time so that it may be this route,
// the route's path is written anywhere else (a wrapper's argument, an SWR key, a base "/api", a
// template of another language), one fetched value leaves sight, or nobody fetches the route.
import path from "node:path";
import { ts, type TypeScript } from "../ts-morph.ts";
import { V1_HOST } from "../../mappings/bases.ts";
import type { Analysis } from "./state.ts";
import type { AppRoute } from "./relay-routes.ts";
import { consumerReads, declarationOf, type Held } from "./consumer-reads.ts";
import { relayScope, projectText, scriptOf } from "./project-reads.ts";
import { resolveParts } from "./urls.ts";
import { urlContext } from "./values.ts";

type N = TypeScript.Node;
const HOLE = Symbol("hole");
type Piece = string | typeof HOLE;

/** The fields the route's fetchers read (field → `file:line`), or why it cannot be told. */
export type RouteReads = { reads: Map<string, string> } | { undecided: string };

const REQUESTS: [RegExp, Held][] = [
  [/^(window\.|globalThis\.|self\.)?fetch$/, { t: "promise", of: { t: "response" } }],
  [/^(\$fetch|ofetch)$/, { t: "promise", of: { t: "json" } }],
  [/^(useFetch|useLazyFetch)$/, { t: "asyncData" }],
  [/^axios(\.(get|delete|head|options|post|put|patch))?$/, { t: "promise", of: { t: "axios" } }],
];
const SCRIPT = /\.([cm]?[jt]sx?)$/;

export function routeReads(a: Analysis, route: AppRoute): RouteReads {
  const memo = (a.routeReads ??= new Map());
  const known = memo.get(route.shown);
  if (known) return known;
  const found = search(a, route);
  memo.set(route.shown, found);
  return found;
}

function search(a: Analysis, route: AppRoute): RouteReads {
  if (!a.projectFiles || !a.adapter) return { undecided: "the project's other files are not known in this run" };
  if (!route.fixed.length) return { undecided: `${route.shown} has no fixed segment to find it by` };
  const shown = (f: string) => path.relative(a.adapter!.root, f).split(path.sep).join("/");
  const reads = new Map<string, string>();
  let fetchers = 0;
  // Every file of the run: a monorepo's front end may fetch what another package's routes answer.
  for (const file of relayScope(a, a.adapter.root)) {
    const text = projectText(a, file);
    if (text === null) return { undecided: `${shown(file)} cannot be read` };
    if (!SCRIPT.test(file)) {
      if (mentionedInText(text, route)) return { undecided: `${shown(file)} names ${route.shown} where the codemod does not follow it` };
      continue;
    }
    if (!route.fixed.some((s) => text.includes(s)) && !/\b(o?fetch|useFetch|useLazyFetch|axios)\b/.test(text)) continue;
    const sf = scriptOf(a, file, text);
    const engineFile = a.files.has(file);
    const followed = new Set<N>();
    for (const call of calls(sf)) {
      const held = REQUESTS.find(([re]) => re.test(call.expression.getText(sf)))?.[1];
      const arg = call.arguments[0];
      if (!held || !arg) continue;
      followed.add(arg);
      if (engineFile && v1Request(a, file, arg)) continue;
      const verdicts = urlForms(arg, 0).map((form) => classify(form, route));
      const verdict = verdicts.includes("maybe") ? "maybe" : verdicts.includes("follow") ? "follow" : "no";
      if (verdict === "no") continue;
      const at = `${shown(file)}:${sf.getLineAndCharacterOfPosition(call.getStart(sf)).line + 1}`;
      if (verdict === "maybe") return { undecided: `${at} requests a URL built at run time that may be ${route.shown}` };
      fetchers++;
      const got = consumerReads(call, held);
      if ("leaves" in got) return { undecided: `what ${at} fetches from ${route.shown} leaves the codemod's sight (${got.why}, line ${sf.getLineAndCharacterOfPosition(got.leaves.getStart(sf)).line + 1})` };
      for (const [field, n] of got.reads) if (!reads.has(field)) reads.set(field, `${shown(file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`);
    }
    const mention = mentionIn(sf, route, followed, !engineFile);
    if (mention) return { undecided: `${shown(file)}:${sf.getLineAndCharacterOfPosition(mention.getStart(sf)).line + 1} names ${route.shown} where the codemod does not follow it` };
  }
  if (!fetchers) return { undecided: `nothing in the project fetches ${route.shown}` };
  return { reads };
}

function calls(sf: TypeScript.SourceFile): TypeScript.CallExpression[] {
  const out: TypeScript.CallExpression[] = [];
  const visit = (n: N): void => {
    if (ts.isCallExpression(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** In a file the engine parsed: the request's URL starts with a v1 base (a v1 call site, not the app's route). */
function v1Request(a: Analysis, file: string, arg: N): boolean {
  const sf = a.files.get(file)!.sf;
  let node = sf.getDescendantAtPos(arg.getStart());
  while (node && !(node.getStart() === arg.getStart() && node.getEnd() === arg.getEnd())) node = node.getParent();
  return !!node && resolveParts(node, urlContext(a))[0]?.kind === "base";
}

/** The URL's forms: each branch of a conditional (`cat ? \`/api/models?c=${cat}\` : "/api/models"`), through a `const` holding it. */
function urlForms(expr: N, depth: number): Piece[][] {
  while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) expr = expr.expression;
  if (depth < 4 && ts.isConditionalExpression(expr)) return [...urlForms(expr.whenTrue, depth + 1), ...urlForms(expr.whenFalse, depth + 1)];
  if (depth < 4 && ts.isIdentifier(expr)) {
    const decl = declarationOf(expr);
    const v = decl?.parent;
    const init = v && ts.isVariableDeclaration(v) && v.name === decl && v.initializer && ts.isVariableDeclarationList(v.parent) && v.parent.flags & ts.NodeFlags.Const ? v.initializer : undefined;
    if (init && ts.isConditionalExpression(init)) return urlForms(init, depth + 1);
  }
  return [urlPieces(expr, depth)];
}

/** A URL expression as literal text and holes, through the file's constants, templates and `+`. */
function urlPieces(expr: N, depth: number): Piece[] {
  while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) expr = expr.expression;
  if (depth > 6) return [HOLE];
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr.text];
  if (ts.isTemplateExpression(expr)) {
    const out: Piece[] = [expr.head.text];
    for (const span of expr.templateSpans) out.push(...urlPieces(span.expression, depth + 1), span.literal.text);
    return out;
  }
  if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) return [...urlPieces(expr.left, depth + 1), ...urlPieces(expr.right, depth + 1)];
  if (ts.isIdentifier(expr)) {
    const decl = declarationOf(expr);
    const v = decl?.parent;
    if (v && ts.isVariableDeclaration(v) && v.name === decl && v.initializer && ts.isVariableDeclarationList(v.parent) && v.parent.flags & ts.NodeFlags.Const) return urlPieces(v.initializer, depth + 1);
  }
  return [HOLE];
}

/** "follow": the URL is this route (holes only in its dynamic segments); "maybe": it could be; "no": it is not. */
function classify(raw: Piece[], route: AppRoute): "follow" | "maybe" | "no" {
  // Literal text joined, the query and fragment dropped.
  const pieces: Piece[] = [];
  for (const p of raw) {
    if (p === HOLE) pieces.push(p);
    else {
      const cut = p.search(/[?#]/);
      const text = cut >= 0 ? p.slice(0, cut) : p;
      const last = pieces.at(-1);
      if (typeof last === "string") pieces[pieces.length - 1] = last + text;
      else pieces.push(text);
      if (cut >= 0) break;
    }
  }
  const first = pieces[0];
  if (typeof first === "string") {
    const origin = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#]*)/i.exec(first);
    if (origin && origin[1]!.toLowerCase() === V1_HOST) return "no";
    if (origin) pieces[0] = first.slice(origin[0].length) || "/";
  }
  const exact = pieces.every((p, i) => p !== HOLE || (i > 0 && String(pieces[i - 1]).endsWith("/") && (i === pieces.length - 1 || String(pieces[i + 1]).startsWith("/") || pieces[i + 1] === "")));
  const filled = pieces.map((p) => (p === HOLE ? "x1" : p)).join("");
  if (exact && first !== HOLE && route.matches.test(filled)) return "follow";
  const loose = new RegExp(`^${pieces.map((p) => (p === HOLE ? ".*" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("")}$`);
  return loose.test(route.sample) || route.matches.test(filled) ? "maybe" : "no";
}

/** Whether a piece of literal text names the route: its fixed path, a base it sits under ("/api"), or (`suffixes`) a path under such a base ("/pods"). */
function names(text: string, route: AppRoute, suffixes: boolean): boolean {
  let t = text.replace(/[?#].*$/s, "");
  const origin = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#]*)/i.exec(t);
  if (origin && origin[1]!.toLowerCase() === V1_HOST) return false;
  if (origin) t = t.slice(origin[0].length);
  const F = route.fixed;
  if (`/${t}/`.replace(/\/+/g, "/").includes(`/${F.join("/")}/`)) return true;
  if (!t.startsWith("/") && !t.endsWith("/")) return false;
  const segs = t.split("/").filter(Boolean).join("/");
  if (!segs) return false;
  for (let k = 1; k < F.length; k++) if (segs === F.slice(0, k).join("/")) return true;
  if (suffixes) for (let k = 1; k < F.length; k++) if (segs === F.slice(k).join("/")) return true;
  return false;
}

/** The first literal of a script that names the route outside the requests already classified, or undefined. */
function mentionIn(sf: TypeScript.SourceFile, route: AppRoute, followed: Set<N>, suffixes: boolean): N | undefined {
  let found: N | undefined;
  const visit = (n: N): void => {
    if (found || followed.has(n) || ts.isTypeNode(n) || ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return;
    // Links and form targets name the route for the browser, not for code that reads its answer.
    if (ts.isJsxAttribute(n) && /^(href|to|src|as|action|key|className)$/.test(n.name.getText(sf))) return;
    if (ts.isExpressionStatement(n) && ts.isStringLiteral(n.expression)) return;
    if (registration(n)) return;
    const text = ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n) ? n.text : undefined;
    const key = !!n.parent && ((ts.isPropertyAssignment(n.parent) && n.parent.name === n) || (ts.isElementAccessExpression(n.parent) && n.parent.argumentExpression === n));
    if (text !== undefined && !key && names(text, route, suffixes)) return void (found = n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** An Express route registration (`app.get("/api/pods", handler)`): it serves the path, it does not fetch it. */
function registration(n: N): boolean {
  if (!ts.isCallExpression(n) || n.arguments.length < 2 || !ts.isPropertyAccessExpression(n.expression)) return false;
  if (!/^(get|post|put|patch|delete|all|use|route)$/.test(n.expression.name.text) || !ts.isIdentifier(n.expression.expression)) return false;
  const decl = declarationOf(n.expression.expression);
  const init = decl && ts.isVariableDeclaration(decl.parent) ? decl.parent.initializer : undefined;
  return !!init && ts.isCallExpression(init) && /^(express|Router|express\.Router)$/.test(init.expression.getText());
}

/** A page or component of another language (.vue, .svelte, .html): any path-like naming of the route. */
function mentionedInText(text: string, route: AppRoute): boolean {
  const F = route.fixed;
  for (let k = 0; k < F.length; k++) if (new RegExp(`/${F.slice(k).join("/").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`).test(text)) return true;
  return false;
}
