// The recall net: what the engine cannot follow is still counted. A string or template literal
// whose text is a v1 route path of the table (dynamic segments included: `/pods/${id}/stop`) in a
// module connected to a v1 base (the module names one, or imports one that does) is a v1 site when
// no planned call has consumed it and its value can reach a request (route-reach.ts: not a cache
// key or an event name). It gets a finding and a mark at its statement; the base it belongs to is
// already kept on v1 by the do-no-harm check (its use was not followed). A path relative to a
// client's base (`'pods'`, `` `pods/${id}/start` ``) counts where it is used as a URL
// (relative-routes.ts), with its request object's method (GET when it names none).
import { unfollowedSwrKey } from "./transports/swr.ts";
import { Node, SyntaxKind, type ExportDeclaration, type ImportDeclaration, type SourceFile } from "../ts-morph.ts";
import { V1_HOST, V2_BASE } from "../../mappings/bases.ts";
import { joinedOnto, plusPieces } from "./joined-base.ts";
import { reachesRequest } from "./route-reach.ts";
import { inV2Api } from "./transports/rtk-query.ts";
import { METHODS, methodBeside, methodOfRequestInit, methodOfRequestObject, relativePathShape, urlPosition } from "./relative-routes.ts";
import { optionsOf, whyUnknown } from "./evaluate/value.ts";
import { baseIn } from "./evaluate/bases.ts";
import { addFinding, fileOf, type Analysis } from "./state.ts";
import { todo } from "./todo-marks.ts";
import { uniqueMatches } from "./v1-match.ts";
import { concatenationOf, referencesOf, statementOf } from "./nodes.ts";
import { enclosingFunction } from "./scope.ts";
import { V1_BASE_NAME, V1_ORIGIN_NAME } from "./v1-redirect.ts";
import { TODO_TAG } from "../prefilter.ts";
import { unwrapExpression } from "./urls.ts";
import { BASE_KEYS } from "./transports/convention.ts";
import { optionProp, seenOptions } from "./values.ts";
import { netConnections } from "./net-connections.ts";
import { overriddenPathDefault } from "./path-defaults.ts";
import { typeCarriesV1Base } from "./typed-bases.ts";

/** Whether an earlier run's mark sits right above the literal's statement (that mark already counts the site). */
function alreadyMarked(text: string, n: Node): boolean {
  const start = statementOf(n).getStart();
  let lineStart = text.lastIndexOf("\n", start - 1) + 1;
  while (lineStart > 0) {
    const prevStart = text.lastIndexOf("\n", lineStart - 2) + 1;
    const prev = text.slice(prevStart, lineStart - 1).trim();
    if (!prev.startsWith("//")) return false;
    if (prev.includes(TODO_TAG)) return true;
    lineStart = prevStart;
  }
  return false;
}

/**
 * The calls on the declared v1 base that a variable holding the path is handed to, when it goes to
 * nothing else (`const path = q ? \`/pods?${q}\` : "/pods"; call(path, opts, RUNPOD_V1_BASE)`): an
 * earlier run kept those calls whole on v1 and marked them, and their marks count the path. A later
 * run does not follow them as sites (their base is the kept one), so the path is not consumed.
 */
function keptCallsTaking(top: Node): Node[] | undefined {
  const decl = top.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || decl.getInitializer() !== top) return undefined;
  const name = decl.getNameNode();
  const statement = decl.getParent()?.getParent();
  if (!Node.isIdentifier(name) || (statement && Node.isVariableStatement(statement) && statement.isExported())) return undefined;
  const scope = enclosingFunction(decl);
  const calls = referencesOf(scope, name).map((r) => {
    const call = r.getParent();
    return call && Node.isCallExpression(call) && call.getArguments().includes(r as never) && OWN_V1_BASE.test(statementOf(call).getText()) ? call : undefined;
  });
  return calls.length && calls.every((c) => !!c) ? (calls as Node[]) : undefined;
}

const HOLE = "\u0000";

/** The literal's text with holes for substitutions. */
function pathText(n: Node): string | undefined {
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  if (Node.isTemplateExpression(n)) return n.getHead().getLiteralText() + n.getTemplateSpans().map((s) => HOLE + s.getLiteral().getLiteralText()).join("");
  return undefined;
}

/**
 * The literal's path as the expression it sits in builds it: a `+` chain of pieces (the others holes),
 * counted once at its first piece; a conditional's second branch is counted with the first when
 * both name the same path. `top`: the expression an argument or a property holds.
 */
function joined(n: Node): { text: string; top: Node; counted: boolean } | undefined {
  const top = concatenationOf(n);
  const pieces = top === n ? [n] : plusPieces(top);
  const first = pieces.find((x) => pathText(x) !== undefined);
  const text = pieces.map((x) => pathText(x) ?? HOLE).join("");
  if (!pathText(n)) return undefined;
  let counted = first !== n;
  let outer = top;
  for (let p = outer.getParent(); p && (Node.isParenthesizedExpression(p) || Node.isConditionalExpression(p)); p = outer.getParent()) {
    if (Node.isConditionalExpression(p) && p.getWhenFalse() === outer && samePath(p.getWhenTrue(), text)) counted = true;
    if (Node.isConditionalExpression(p) && p.getCondition() === outer) break;
    outer = p;
  }
  return { text, top: outer, counted };
}

function samePath(other: Node, text: string): boolean {
  const t = Node.isParenthesizedExpression(other) ? other.getExpression() : other;
  const o = pathText(t) ?? (Node.isBinaryExpression(t) ? plusPieces(t).map((x) => pathText(x) ?? HOLE).join("") : undefined);
  const path = (s: string) => s.split(/[?#]/)[0]!.replace(/\/$/, "");
  return o !== undefined && path(o) === path(text);
}

/**
 * The modules a file imports, re-exports or requires (by literal specifier) at run time. A type-only
 * import or re-export (`import type { Pod }`, `import { type Pod }`, `export type { Pod } from`) is
 * erased: no base reaches the module through it (a client handed in as a value typed from there is
 * followed from its callers: netConnections' sites), unless a value of the type carries the v1 base.
 */
function moduleSpecifiers(sf: SourceFile): string[] {
  // (A type its module fills with the v1 base still carries it in: typed-bases.ts.)
  const runs = (d: ImportDeclaration | ExportDeclaration) => !typesOnly(d) || typeCarriesV1Base(d);
  const out = [...sf.getImportDeclarations().filter(runs), ...sf.getExportDeclarations().filter(runs)]
    .map((d) => d.getModuleSpecifierValue())
    .filter((m): m is string => !!m);
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const arg = call.getArguments()[0];
    if (call.getExpression().getText() === "require" && arg && Node.isStringLiteral(arg)) out.push(arg.getLiteralValue());
  }
  return out;
}

/** Whether an import or re-export names types only (a bare `import "./x"` or `export * from` runs the module: not types only). */
function typesOnly(d: ImportDeclaration | ExportDeclaration): boolean {
  if (d.isTypeOnly()) return true;
  if (Node.isImportDeclaration(d)) {
    const named = d.getNamedImports();
    return !!d.getImportClause() && !d.getDefaultImport() && !d.getNamespaceImport() && named.length > 0 && named.every((n) => n.isTypeOnly());
  }
  const named = d.getNamedExports();
  return d.hasNamedExports() && named.length > 0 && named.every((n) => n.isTypeOnly());
}

/** The v1 host outside the declared base of marked calls (that base only serves calls already marked). */
function namesV1Host(text: string): boolean {
  return text.replace(DECLARED_V1_BASE, "").includes(V1_HOST);
}

const OWN_V1_BASE = new RegExp(`\\b(?:${V1_BASE_NAME}|${V1_ORIGIN_NAME})\\b`);
const DECLARED_V1_BASE = new RegExp(`^const (?:${V1_BASE_NAME}|${V1_ORIGIN_NAME}) = .*$`, "gm");

export function recallNet(a: Analysis, sf: SourceFile): void {
  const imported = (file: SourceFile) => moduleSpecifiers(file).map((m) => a.resolve?.(file.getFilePath(), m)).filter((t): t is SourceFile => !!t);
  const bases = netConnections(a, sf, (file) => namesV1Host(file.getFullText()), imported);
  if (!bases.size) return;
  const literals = [
    ...sf.getDescendantsOfKind(SyntaxKind.StringLiteral),
    ...sf.getDescendantsOfKind(SyntaxKind.NoSubstitutionTemplateLiteral),
    ...sf.getDescendantsOfKind(SyntaxKind.TemplateExpression),
  ];
  for (const n of literals) {
    // (A template whose head is empty, `${base}/pods`, is consumed through its spans' text.)
    if (a.consumed.has(n) || (Node.isTemplateExpression(n) && [n.getHead(), ...n.getTemplateSpans().map((s) => s.getLiteral())].some((l) => a.consumed.has(l)))) continue;
    if (n.getFirstAncestor((x) => Node.isImportDeclaration(x) || Node.isExportDeclaration(x) || Node.isTypeNode(x))) continue;
    // The default of a helper's path that each of its calls replaces with its own (path-defaults.ts).
    if (overriddenPathDefault(a, n)) continue;
    // `"/pods/" + id + "/restart"` is one path, counted at its first piece; `qs ? \`/pods?${qs}\` : "/pods"` one site, counted at its first branch.
    const whole = joined(n);
    if (!whole || whole.counted) continue;
    let raw = whole.text;
    if (raw.includes(V1_HOST)) continue;
    // `${this.base}/pods/${id}` on a v1 base the engine could not follow to a call: the path after the base.
    // So too on a base the codemod cannot know (`${config.apiUrl}/billing/…` of a config it cannot read), in a module of a v1 client.
    const leading = raw.startsWith(HOLE) && Node.isTemplateExpression(n) && n.getHead().getLiteralText() === "" ? leadingBase(a, n.getTemplateSpans()[0]!.getExpression()) : undefined;
    if (leading) raw = raw.slice(1);
    // A path relative to the client's base (`'pods'`, `` `pods/${id}/start` ``), where a URL goes.
    const relative = !raw.startsWith("/") && relativePathShape(raw) && (urlPosition(n) || (/[/\0]/.test(raw) && Node.isCallExpression(n.getParent()!)));
    if (!raw.startsWith("/") && !relative) continue;
    const text = relative ? `/${raw}` : raw;
    const path = text.split(/[?#]/)[0]!.replace(/\/$/, "");
    if (!path || path === "/" || /^\/v[12]\b/.test(path)) continue;
    if (isAppRoute(n, text)) continue;
    // On a base it cannot know, only a route whose every id is a value written in (`/pods/${id}`, not `/pods/summary`).
    const matches = uniqueMatches(path).filter((m) => leading !== "unknown" || Object.values(m.params).every((v) => v === HOLE));
    if (!matches.length) continue;
    // The path of a call on the v2 base (a migrated helper: v1 and v2 share `/pods/{id}`) or on another API's.
    if (onOtherBase(a, n) || inV2Api(a, n)) continue;
    // A path used as a key, compared or logged, never reaching a request or a URL being built.
    if (!reachesRequest(a, n)) continue;
    // A use of the bases it may be sent on that nothing follows: they stay v1 (an earlier run's mark still counts).
    // (Not a path a kept call already sends on its own declared v1 base: `call(path, "POST", RUNPOD_V1_BASE)`,
    // nor one a variable hands only to such calls.)
    const kept = keptCallsTaking(whole.top);
    if (!kept && !OWN_V1_BASE.test(statementOf(n).getText())) (a.netUses ??= new Map()).set(n, bases);
    // Counted with the call sites the engine follows (the rewrite's summary), marked by an earlier run or not.
    const file = a.files.get(n.getSourceFile().getFilePath());
    if (file) file.netSites = (file.netSites ?? 0) + 1;
    if (alreadyMarked(fileOf(a, n).text, n) || kept?.every((call) => alreadyMarked(fileOf(a, n).text, call))) continue;
    // A request object's `method` (GET when it names none), else the method beside it in a call; a bare relative path is read with GET.
    const method = matches.length > 1 ? methodOfRequestObject(n) ?? methodOfRequestInit(whole.top) ?? methodBeside(whole.top) ?? methodInChain(whole.top) ?? (relative ? "GET" : undefined) : undefined;
    const narrowed = method ? matches.filter((m) => m.operation.v1.method === method) : matches;
    const op = narrowed.length === 1 ? narrowed[0]!.operation : undefined;
    const onto = leading === "unknown" && Node.isTemplateExpression(n) ? ` joined onto ${stopsAt(a, n.getTemplateSpans()[0]!.getExpression())},` : "";
    let reason = `a v1 route path (${path.replace(/\0/g, "{…}")})${onto} in a module of a v1 client, not tied to a call the codemod can follow`;
    let advice = "migrate this call by hand (its v2 path, method, body and answer: docs/mapping.md), or write it as a call on the client's base";
    // A path in a data-fetching hook's key the hook's answer is not followed from (swr.ts) says why.
    const swrWhy = unfollowedSwrKey(a, n);
    if (swrWhy) (reason = `a v1 route path (${path.replace(/\0/g, "{…}")}) in an SWR key: ${swrWhy}`), (advice = "migrate this hook by hand: its key's v2 path, and its data's reads in v2 (docs/mapping.md), with its fetcher's base");
    // An operation v2 does not have (reset) says so, however it is called.
    const none = op?.status === "no-equivalent";
    if (none) (reason = `${op!.decision?.message ?? `${op!.key} has no v2 equivalent`} (${reason})`), (advice = op!.decision?.advice ?? advice);
    const category = none ? "no-equivalent" : "review";
    todo(a, n, op?.key ?? "base", category, reason, advice);
    addFinding(a, n, { operation: op?.key ?? null, v1: op ? { method: op.v1.method, path: op.v1.path } : null, v2: op?.v2 ? { method: op.v2.method, path: op.v2.path } : null, category, reason, advice, ...(op ? {} : { subject: "url" as const }) });
  }
}

/** A template's leading hole that holds a v1 base, or a value the codemod cannot know (no string of another host among what it can hold). */
function leadingBase(a: Analysis, expr: Node): "v1" | "unknown" | undefined {
  if (holdsV1Base(a, expr)) return "v1";
  try {
    const options = optionsOf(a.evaluator.evaluate(expr));
    return options.every((o) => o.kind === "dynamic" || o.kind === "env") ? "unknown" : undefined;
  } catch {
    return undefined;
  }
}

/** A base the codemod cannot know, and where its value stops being followed (the evaluator's reasons). */
function stopsAt(a: Analysis, expr: Node): string {
  const shown = expr.getText().slice(0, 40);
  let why = "";
  try {
    why = whyUnknown(a.evaluator.evaluate(expr));
  } catch {
    why = "";
  }
  // Where it stops: the innermost reason (`config is never given`: a parameter no call in sight passes).
  const stop = why.split(", because ").pop();
  if (!stop) return `${shown}, whose value the codemod cannot follow`;
  // A long stop goes last: a mark cut to one short line then keeps the reason, and the finding keeps the detail.
  return stop.length <= 40 ? `${shown} (${stop}), whose value the codemod cannot follow further` : `${shown}, whose value the codemod cannot follow (${stop})`;
}

/** The expression can hold a v1 base (a template's leading hole: what the path is joined onto). */
function holdsV1Base(a: Analysis, expr: Node): boolean {
  try {
    return !!baseIn(a.evaluator.evaluate(expr));
  } catch {
    return false;
  }
}

/**
 * `$fetch(path, { baseURL: "…/v2" })` or on another API's base (`{ ...clusterOpts() }` whose helper
 * writes `baseURL: "https://k8s…"`), or an instance made with the v2 base (or only with another API's) called (`api(path)`, `api.get(path)`).
 */
function v2BaseOption(a: Analysis, call: Node & { getArguments(): Node[]; getExpression(): Node }): boolean {
  const isV2 = (n: Node | undefined) => !!n && optionsOf(a.evaluator.evaluate(n)).some((o) => o.kind === "string" && o.text.replace(/\/+$/, "") === V2_BASE);
  // A URL of another host or the v2 base, and never a v1 base: the path is that API's.
  const elsewhere = (n: Node | undefined) => {
    if (!n) return false;
    const v = a.evaluator.evaluate(n);
    return !baseIn(v) && optionsOf(v).some((o) => o.kind === "string" && /^https?:\/\//.test(o.text));
  };
  const ownBase = (obj: Node | undefined, test = isV2) => {
    const o = obj && unwrapExpression(obj);
    return !!o && Node.isObjectLiteralExpression(o) && BASE_KEYS.some((k) => {
      const p = o.getProperty(k);
      return !!p && Node.isPropertyAssignment(p) && test(p.getInitializer());
    });
  };
  const seenBase = (obj: Node | undefined) => BASE_KEYS.some((k) => elsewhere(optionProp(a, seenOptions(a, obj), k).node));
  try {
    if (ownBase(call.getArguments()[1]) || seenBase(call.getArguments()[1])) return true;
    const callee = unwrapExpression(call.getExpression());
    const receiver = Node.isPropertyAccessExpression(callee) ? callee.getExpression() : callee;
    const made = optionsOf(a.evaluator.evaluate(receiver));
    const madeWith = (test: typeof isV2) => (o: (typeof made)[number]) => o.kind === "made" && Node.isCallExpression(o.call) && ownBase(o.call.getArguments()[0], test);
    // An instance of another API (`cluster: ReturnType<typeof openCluster>` made on its own host): its paths are that API's.
    return made.some(madeWith(isV2)) || (made.length > 0 && made.every(madeWith(elsewhere)));
  } catch {
    return false;
  }
}

/**
 * The literal is the path of a call on the v2 base (`$fetch(path, { baseURL: "…/v2" })`), or the
 * path argument of a project function that joins it onto the v2 base, another host, or an
 * environment variable no v1 base reads (`runpodRest("/templates")` with `${API}${path}` and API the
 * v2 base; `joinUrl(env.APP_URL, "/docs")`): that API's path, not a v1 site (joined-base.ts).
 */
function onOtherBase(a: Analysis, literal: Node): boolean {
  const call = literal.getParent();
  if (!call || !Node.isCallExpression(call)) return false;
  if (call.getArguments()[0] === literal && v2BaseOption(a, call)) return true;
  return joinedOnto(a, literal) !== undefined;
}

/**
 * The app's own routes, not requests: a router's or a link's target (`router.push("/pods")`,
 * `<Link href="/pods">`, `redirect("/pods")`, a menu entry's `href`), a route table entry (`{ path: "/pods", element }`,
 * `/pods/:podId`), a server's route registration (`app.get("/pods", (req, res) => …)`).
 */
function isAppRoute(literal: Node, text: string): boolean {
  if (/\/:[A-Za-z_]/.test(text)) return true;
  const parent = literal.getParent();
  if (parent && (Node.isJsxAttribute(parent) || Node.isJsxExpression(parent))) return true;
  if (parent && Node.isPropertyAssignment(parent) && parent.getInitializer() === literal) {
    // A link's target by the web's convention (an anchor's `href`): `{ href: "/templates", label: "Products" }` in a menu.
    if (parent.getName() === "href") return true;
    const obj = parent.getParent();
    const keys = obj && Node.isObjectLiteralExpression(obj) ? obj.getProperties().map((p) => (p as any).getName?.() as string | undefined) : [];
    return keys.some((k) => k !== undefined && ["element", "component", "Component", "children", "lazy", "loader", "redirectTo", "page"].includes(k));
  }
  if (!parent || !Node.isCallExpression(parent)) return false;
  const callee = parent.getExpression();
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  if (["push", "replace", "navigate", "redirect", "permanentRedirect", "prefetch", "navigateTo", "goto"].includes(name)) return true;
  const handler = (c: Node & { getArguments(): Node[] }) => c.getArguments().some((a) => Node.isArrowFunction(a) || Node.isFunctionExpression(a));
  if (Node.isPropertyAccessExpression(callee) && /^(get|post|put|patch|delete|all|use|route)$/.test(name) && handler(parent)) return true;
  // `router.route("/pods").get((req, res) => …)`: the route's handlers are chained on it.
  return name === "route" && chainLinks(parent).some((l) => handler(l.call));
}

/** The links chained on a call (`.query(q)`, `.get()`, `.json()`), in order, up to twelve. */
function chainLinks(call: Node): { name: string; call: Node & { getArguments(): Node[] } }[] {
  const out: { name: string; call: Node & { getArguments(): Node[] } }[] = [];
  for (let cur = call; out.length < 12; ) {
    const access = cur.getParent();
    const next = access?.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== cur || !next || !Node.isCallExpression(next)) break;
    out.push({ name: access.getName(), call: next });
    cur = next;
  }
  return out;
}

/**
 * The verb link of a request-builder chain the path is given to (`api.url("/pods").query(q).get().json()`,
 * `.url(path).json(body).patch()`: wretch and its kind), the first one after the path's own link.
 */
function methodInChain(literal: Node): string | undefined {
  const own = literal.getParent();
  if (!own || !Node.isCallExpression(own) || !Node.isPropertyAccessExpression(own.getExpression())) return undefined;
  for (const { name } of chainLinks(own)) {
    if (METHODS.includes(name.toUpperCase())) return name.toUpperCase();
    if (["then", "catch", "finally"].includes(name)) return undefined;
  }
  return undefined;
}
