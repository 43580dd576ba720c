// Where a record leaves the codemod's sight by being answered to the browser from one of the app's
// own routes (a relay): `return NextResponse.json(pods)` (or `new NextResponse(JSON.stringify(pods))`) in a Next.js `app/**/route.ts`,
// `res.json(pod)` in `pages/api/**` or an Express `app.get("/api/pods", …)` handler, SvelteKit's
// `json(list)` in `src/routes/**/+server.ts`, a Nuxt `server/api/**` handler's `return`. The route
// the app serves it at comes from the file's place (the frameworks' file conventions) or the
// Express registration; relay-consumers.ts finds the code that fetches it.
import path from "node:path";
import { Node } from "../ts-morph.ts";
import { packageRoot } from "./package-root.ts";
import type { Analysis } from "./state.ts";

/** A route of the app: `/api/pods/[id]` as shown, and what concrete paths it answers. */
export interface AppRoute {
  shown: string;
  /** Anchored: a concrete path (no query) the route answers. */
  matches: RegExp;
  /** The segments before the first dynamic one (`["api", "pods"]`). */
  fixed: string[];
  /** A concrete path it answers, each dynamic segment filled with a sample. */
  sample: string;
}

/** The relay a value leaving sight at `value` is (its route), or undefined when it is not one the codemod knows. */
export function relayOf(a: Analysis, value: Node, viaReturn: boolean): { route: AppRoute; at: Node } | undefined {
  // Without the adapter nothing is decided by the route's readers.
  if (!a.adapter || !a.projectFiles) return undefined;
  const found = relayRoute(a, value, viaReturn);
  // A route module that other code imports (its handler called directly, a helper of it reused)
  // hands its answers to that code too: only the framework may call it.
  return found && !value.getSourceFile().getReferencingSourceFiles().length ? found : undefined;
}

function relayRoute(a: Analysis, value: Node, viaReturn: boolean): { route: AppRoute; at: Node } | undefined {
  const file = value.getSourceFile().getFilePath();
  const root = a.adapter?.root ?? path.dirname(file);
  const rel = path.relative(packageRoot(file, root), file).split(path.sep).join("/");
  const p = value.getParent();
  if (viaReturn) {
    // Nuxt: `export default defineEventHandler(async () => { …; return pods })`.
    const fn = Node.isReturnStatement(p) ? enclosingFn(p) : p;
    const holder = fn?.getParent();
    if (!fn || !holder || !Node.isCallExpression(holder) || !/^(defineEventHandler|eventHandler|defineCachedEventHandler)$/.test(holder.getExpression().getText())) return undefined;
    const route = nuxtRoute(rel);
    return route && { route, at: value };
  }
  if (!p || !Node.isCallExpression(p) || p.getArguments()[0] !== value) return undefined;
  const callee = p.getExpression().getText().replace(/\s/g, "");
  // `new NextResponse(JSON.stringify(pod), { status: 200, headers })`, `new Response(JSON.stringify(list))`: the same answer written by hand.
  const made = callee === "JSON.stringify" ? p.getParent() : undefined;
  if (made && Node.isNewExpression(made) && made.getArguments()[0] === p && /^(Response|NextResponse)$/.test(made.getExpression().getText())) {
    const route = nextAppRoute(rel) ?? svelteKitRoute(rel);
    return route && { route, at: made };
  }
  if (/^(Response|NextResponse)\.json$/.test(callee)) {
    const route = nextAppRoute(rel);
    return route && { route, at: p };
  }
  if (callee === "json") {
    const route = svelteKitRoute(rel);
    return route && { route, at: p };
  }
  // `res.json(x)`, `res.status(200).json(x)`, `res.send(x)`: `res` the handler's second parameter.
  const m = /^(\w+)(?:\.status\([^)]*\))?\.(json|send)$/.exec(callee);
  if (!m) return undefined;
  const handler = handlerTaking(p, m[1]!);
  if (!handler) return undefined;
  const route = nextPagesRoute(rel) ?? expressRoute(handler);
  return route && { route, at: p };
}

function enclosingFn(n: Node): Node | undefined {
  return n.getFirstAncestor((x) => Node.isArrowFunction(x) || Node.isFunctionExpression(x) || Node.isFunctionDeclaration(x) || Node.isMethodDeclaration(x));
}

/** The function whose second parameter is `res` (the response object), enclosing `at`. */
function handlerTaking(at: Node, res: string): Node | undefined {
  for (let fn = enclosingFn(at); fn; fn = enclosingFn(fn)) {
    const params = (fn as any).getParameters() as Node[];
    const second = params[1] && (params[1] as any).getNameNode();
    if (second && Node.isIdentifier(second) && second.getText() === res) return fn;
  }
  return undefined;
}

const EXT = /\.[cm]?[jt]sx?$/;

/** Next.js app router: `app/api/pods/[id]/route.ts` → `/api/pods/[id]` (route groups and slots left out). */
function nextAppRoute(rel: string): AppRoute | undefined {
  const m = /^(?:src\/)?app\/(.*?)\/?route\.[cm]?[jt]sx?$/.exec(rel);
  return m ? routeOf(m[1]!.split("/").filter((s) => s && !/^\(.*\)$/.test(s) && !s.startsWith("@"))) : undefined;
}

/** Next.js pages router: `pages/api/pods/index.ts` → `/api/pods`. */
function nextPagesRoute(rel: string): AppRoute | undefined {
  const m = /^(?:src\/)?pages\/(api\/.*)$/.exec(rel);
  if (!m || !EXT.test(m[1]!)) return undefined;
  const segs = m[1]!.replace(EXT, "").split("/");
  if (segs.at(-1) === "index") segs.pop();
  return routeOf(segs);
}

/** SvelteKit: `src/routes/api/pods/[id]/+server.ts` → `/api/pods/[id]` (groups left out). */
function svelteKitRoute(rel: string): AppRoute | undefined {
  const m = /^src\/routes\/(.*?)\/?\+server\.[jt]s$/.exec(rel);
  return m ? routeOf(m[1]!.split("/").filter((s) => s && !/^\(.*\)$/.test(s))) : undefined;
}

/** Nuxt: `server/api/pods/[id].get.ts` → `/api/pods/[id]`; `server/routes/x.ts` → `/x`. */
function nuxtRoute(rel: string): AppRoute | undefined {
  const m = /^server\/(api|routes)\/(.*)\.[cm]?[jt]s$/.exec(rel);
  if (!m) return undefined;
  const segs = m[2]!.replace(/\.(get|post|put|patch|delete|head|options)$/, "").split("/");
  if (segs.at(-1) === "index") segs.pop();
  return routeOf(m[1] === "api" ? ["api", ...segs] : segs);
}

/**
 * Express: the handler is an argument of `app.get("/api/pods/:id", …)` on an app made by
 * `express()` in the same module. A router's paths sit under a prefix its mount gives: not known here.
 */
function expressRoute(handler: Node): AppRoute | undefined {
  const call = handler.getParent();
  if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(handler as never)) return undefined;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !/^(get|post|put|patch|delete|all)$/.test(callee.getName())) return undefined;
  const first = call.getArguments()[0];
  if (!first || !(Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first))) return undefined;
  const receiver = callee.getExpression();
  const decl = Node.isIdentifier(receiver) ? receiver.getSymbol()?.getDeclarations()[0] : undefined;
  const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  if (!init || !Node.isCallExpression(init) || init.getExpression().getText() !== "express") return undefined;
  const text = first.getLiteralValue();
  if (!text.startsWith("/") || /[*?()]/.test(text)) return undefined;
  const route = routeOf(text.split("/").filter(Boolean).map((s) => (s.startsWith(":") ? `[${s.slice(1)}]` : s)));
  return route && { ...route, shown: text };
}

/** Segments in the frameworks' bracket form (`[id]`, `[...slug]`, `[[...slug]]`) → the route. */
export function routeOf(segs: string[]): AppRoute | undefined {
  let pattern = "";
  let sample = "";
  const fixed: string[] = [];
  let dynamic = false;
  for (const s of segs) {
    if (/^\[\[\.\.\..+\]\]$/.test(s)) (pattern += "(?:/[^?#]*)?"), (sample += "/x1"), (dynamic = true);
    else if (/^\[\.\.\..+\]$/.test(s)) (pattern += "/[^?#]+"), (sample += "/x1"), (dynamic = true);
    else if (/^\[.+\]$/.test(s)) (pattern += "/[^/?#]+"), (sample += "/x1"), (dynamic = true);
    else if (/[[\]]/.test(s)) return undefined;
    else {
      pattern += "/" + s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      sample += "/" + s;
      if (!dynamic) fixed.push(s);
    }
  }
  return { shown: "/" + segs.join("/"), matches: new RegExp(`^${pattern || "/"}/?$`), fixed, sample: sample || "/" };
}
