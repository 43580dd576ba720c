// undici's dispatchers: `new Pool(origin)` / `new Client(origin)` (or an `Agent`'s `request`) take
// the origin once and a full path per request (`pool.request({ path: "/v1/pods/…", method })`).
// The version is in the path, written apart from the host, so the codemod does not rewrite such a
// request: each is a v1 call site, marked with its operation. When the origin comes from a base
// that flips (`new URL(config.apiUrl).origin`), the dispatcher is moved onto the declared v1
// origin (`RUNPOD_V1_ORIGIN`) so its marked requests keep reaching v1, and the base's other calls migrate.
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { V2_BASE } from "../../mappings/bases.ts";
import { addFinding, fileOf, type Analysis, type Site } from "./state.ts";
import { todo } from "./todo-marks.ts";
import { uniqueMatches } from "./v1-match.ts";
import { methodOfRequestObject } from "./relative-routes.ts";
import { optionsOf } from "./evaluate/value.ts";
import { baseIn } from "./evaluate/bases.ts";
import { unwrapExpression } from "./urls.ts";
import { replaceNode } from "./text-edit.ts";
import { V1_BASE_NAME, V1_ORIGIN_NAME } from "./v1-redirect.ts";

const DISPATCHERS = new Set(["Pool", "Client", "BalancedPool"]);
const HOLE = "\u0000";

export function undiciDispatches(a: Analysis, sf: SourceFile): void {
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = unwrapExpression(call.getExpression());
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "request") continue;
    const opts = call.getArguments()[0] && unwrapExpression(call.getArguments()[0]!);
    const pathProp = opts && Node.isObjectLiteralExpression(opts) ? opts.getProperty("path") : undefined;
    const pathNode = pathProp && Node.isPropertyAssignment(pathProp) ? unwrapExpression(pathProp.getInitializer()!) : undefined;
    const path = pathNode && versionedPath(pathNode);
    if (!pathNode || !path || a.consumed.has(pathNode)) continue;
    const made = dispatcherOf(a, callee.getExpression());
    if (!made) continue;
    const matches = uniqueMatches(path);
    if (!matches.length) continue;
    const method = methodOfRequestObject(pathNode);
    const narrowed = method ? matches.filter((m) => m.operation.v1.method === method) : matches;
    const op = narrowed.length === 1 ? narrowed[0]!.operation : undefined;
    const origin = made.getArguments()[0];
    const held = origin ? a.evaluator.evaluate(origin) : undefined;
    const found = held ? baseIn(held) : undefined;
    // A dispatcher to another host (`new Pool("https://hooks.example.com")`) sends that API's /v1 paths.
    if (!found && held && optionsOf(held).some((o) => o.kind === "string")) continue;
    a.consumed.add(pathNode);
    const site: Site = { call, file: fileOf(a, call), deps: new Set(found?.sources ?? []), edits: [], complete: false, whole: true };
    if (origin && found) {
      // The dispatcher's origin is this call's use of the base: its requests are the sites (accounted),
      // and it moves to the declared v1 origin when the base flips (one edit for every request on it).
      for (const n of [origin, ...origin.getDescendants()]) a.accounted.add(n);
      const key = `${made.getSourceFile().getFilePath()}:${made.getStart()}:dispatcher`;
      // `new URL(config.apiUrl).origin`: the base inside becomes the declared v1 base; an origin itself, the declared v1 origin.
      // (The origin written in place, `new Pool("https://…")`, is the base itself: it stays v1 with its requests.)
      const inner = urlOrigin(origin);
      const [at, name] = inner ? [inner, V1_BASE_NAME] : [origin, V1_ORIGIN_NAME];
      if (!found.sources.includes(unwrapExpression(origin))) site.redirect = { edits: [], names: [], shared: { key, edits: [replaceNode(at, name)], names: [name] } };
    }
    const shown = path.replace(/\0/g, "{…}");
    const none = op?.status === "no-equivalent";
    const reason = none ? op!.decision?.message ?? `${op!.key} has no v2 equivalent` : `an undici ${dispatcherName(made)} request whose path carries the version (/v1${shown}): the codemod does not rewrite requests on a dispatcher, and keeps it on the v1 origin`;
    const advice = none ? op!.decision?.advice ?? "see docs/mapping.md" : `migrate it by hand: path /v2…, method, body and answer in v2 (docs/mapping.md), on the origin of ${V2_BASE}`;
    const category = none ? "no-equivalent" : "review";
    todo(a, call, op?.key ?? "base", category, reason, advice);
    site.finding = addFinding(a, call, { operation: op?.key ?? null, v1: op ? { method: op.v1.method, path: op.v1.path } : null, v2: op?.v2 ? { method: op.v2.method, path: op.v2.path } : null, category, reason, advice, ...(op ? {} : { subject: "url" as const }) });
    a.sites.push(site);
  }
}

/** `/v1/pods/${id}` → `/pods/\0` (the route after the version); undefined for any other path. */
function versionedPath(n: Node): string | undefined {
  let text: string | undefined;
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) text = n.getLiteralValue();
  else if (Node.isTemplateExpression(n)) text = n.getHead().getLiteralText() + n.getTemplateSpans().map((s) => HOLE + s.getLiteral().getLiteralText()).join("");
  const m = text ? /^\/v1(\/[^?#]*)/.exec(text) : undefined;
  return m ? m[1]!.replace(/\/$/, "") : undefined;
}

/** The `new Pool(…)` / `new Client(…)` of undici the receiver holds, if that is what it holds. */
function dispatcherOf(a: Analysis, receiver: Node): (Node & { getArguments(): Node[] }) | undefined {
  for (const o of optionsOf(a.evaluator.evaluate(receiver))) {
    if (o.kind !== "made" || !Node.isNewExpression(o.call)) continue;
    const cls = a.evaluator.evaluate(o.call.getExpression());
    if (cls.kind === "module" && cls.module === "undici" && DISPATCHERS.has(cls.name)) return o.call;
  }
  return undefined;
}

function dispatcherName(made: Node): string {
  return (made as any).getExpression().getText();
}

/** `new URL(x).origin`: x. */
function urlOrigin(n: Node): Node | undefined {
  const u = unwrapExpression(n);
  if (!Node.isPropertyAccessExpression(u) || u.getName() !== "origin") return undefined;
  const made = unwrapExpression(u.getExpression());
  return Node.isNewExpression(made) && made.getExpression().getText() === "URL" && made.getArguments().length === 1 ? made.getArguments()[0] : undefined;
}
