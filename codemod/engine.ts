// The codemod engine for one file: parse (ts-morph) → find v1 call sites → plan edits from the
// mapping table → apply them as text edits on the original source. The audit runs the same
// finder and ignores the edits. Nothing here does I/O.
import path from "node:path";
import { Node, Project, ScriptKind, SyntaxKind, type CallExpression, type SourceFile } from "./ts-morph.ts";
import { converterNamed, errorFieldMap, lensNamed, matchV1, operations, type FieldLens, type HttpMethod, type OperationMapping } from "../mappings/index.ts";
import { convertBody, evaluateLiteral, renderValue } from "./body.ts";
import { redact } from "./redact.ts";
import { bindingNames, countIdentifiers, enclosingFunction, isAsyncFunction, isFunctionLike, resolveIdentifier, type Binding } from "./scope.ts";
import type { Category, Edit, ExportedSymbol, FileAnalysis, Finding, HelperSignature, ModuleExports, ProjectSymbols } from "./types.ts";
import { HOLE_MARK, isBaseOnly, isDynamicPath, literalText, locate, resolveParts, rewriteUrl, unwrapExpression, v2BaseFor, type JoinMode, type LocatedUrl, type UrlContext } from "./urls.ts";

import { TODO_TAG, mightUseV1 } from "./prefilter.ts";
import { V1_HOST, V2_BASE, V2_OPENAPI_URL } from "../mappings/bases.ts";

export { TODO_TAG, mightUseV1 };
const TODO_LINE = /^[ \t]*\/\/ TODO\(v2-migration\) (\S+) \((review|no-equivalent)\): (.*?)(?:; advice: (.*))?$/;

export interface AnalyzeOptions {
  /** Absolute path (used to resolve relative imports and for the file's language). */
  fileName: string;
  /** File name written into findings (defaults to fileName). */
  displayName?: string;
  symbols?: ProjectSymbols;
  /** Resolves an import specifier to an absolute file path known to the run. */
  resolveModule?: (fromFile: string, specifier: string) => string | undefined;
}

// ── parsing ──────────────────────────────────────────────────────────────

let sharedProject: Project | undefined;

function project(): Project {
  sharedProject ??= new Project({
    useInMemoryFileSystem: true,
    skipFileDependencyResolution: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { allowJs: true, jsx: 1 /* preserve */, noLib: true, noResolve: true, types: [] },
  });
  return sharedProject;
}

function scriptKindFor(file: string): ScriptKind {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".tsx") return ScriptKind.TSX;
  if (ext === ".jsx") return ScriptKind.JSX;
  if (ext === ".js" || ext === ".mjs" || ext === ".cjs") return ScriptKind.JSX; // JSX is legal in many .js code bases
  return ScriptKind.TS;
}

let counter = 0;

function parse(text: string, fileName: string): { sf: SourceFile; error?: string } {
  const ext = path.extname(fileName) || ".ts";
  const virtual = `/v2-bridge-codemod/${++counter}${ext === ".mjs" || ext === ".cjs" ? ".js" : ext === ".mts" || ext === ".cts" ? ".ts" : ext}`;
  const sf = project().createSourceFile(virtual, text, { overwrite: true, scriptKind: scriptKindFor(fileName) });
  const diags = ((sf.compilerNode as any).parseDiagnostics ?? []) as { start?: number; messageText: string | { messageText: string } }[];
  if (diags.length) {
    const d = diags[0]!;
    const pos = d.start !== undefined ? sf.getLineAndColumnAtPos(d.start) : { line: 1, column: 1 };
    const msg = typeof d.messageText === "string" ? d.messageText : d.messageText.messageText;
    return { sf, error: `${pos.line}:${pos.column} ${msg}` };
  }
  return { sf };
}

// ── libraries ────────────────────────────────────────────────────────────

type Lib = "fetch" | "undici-request" | "axios" | "got" | "ky";
interface External {
  value: string;
  node: Node | null;
  join: JoinMode;
}
type Root = { lib: Lib; instance?: External } | { lib: "undici-ns" } | { lib: "helper"; sig: HelperSignature; name: string };

const FETCH_MODULES = new Set(["node-fetch", "cross-fetch", "isomorphic-fetch", "make-fetch-happen"]);
const VERBS = new Set(["get", "post", "put", "patch", "delete", "head", "options"]);

interface HttpCall {
  call: CallExpression;
  lib: Lib | "helper";
  helper?: HelperSignature;
  urlNode?: Node;
  external?: External;
  method: { value?: HttpMethod; node?: Node; kind: "literal" | "default" | "verb" | "unknown" };
  /** Options object where a body / method could be added. */
  options?: Node;
  body?: { node: Node; stringify: boolean; prop?: Node };
  /** Where a fixed body goes for this library. */
  bodyKey: "body" | "data" | "json" | "arg";
}

// ── the engine ───────────────────────────────────────────────────────────

class FileEngine {
  readonly findings: Finding[] = [];
  readonly edits: Edit[] = [];
  readonly exports: ModuleExports = new Map();
  readonly consumed = new Set<Node>();
  readonly todos = new Map<Node, string[]>();
  readonly emittedTodos = new Set<string>();
  readonly helperCache = new Map<Node, HelperSignature | null>();
  readonly baseCache = new Map<Node, string | null>();
  readonly quote: string;
  callSites = 0;
  rewritten = 0;
  private readonly text: string;
  private lines: string[] | undefined;

  constructor(private readonly sf: SourceFile, private readonly options: AnalyzeOptions) {
    this.text = sf.getFullText();
    const firstString = sf.getFirstDescendant((n) => Node.isStringLiteral(n));
    this.quote = firstString ? firstString.getText()[0]! : '"';
  }

  // ── symbols ──

  private imported(binding: Binding, member?: string): ExportedSymbol | undefined {
    if (binding.kind !== "import") return undefined;
    const { symbols, resolveModule } = this.options;
    if (!symbols || !resolveModule || !binding.module.startsWith(".")) return undefined;
    const file = resolveModule(this.options.fileName, binding.module);
    if (!file) return undefined;
    const name = binding.name === "*" ? member : binding.name;
    return name ? symbols.modules.get(file)?.get(name) : undefined;
  }

  readonly urlContext: UrlContext = {
    baseOf: (node) => this.baseOf(node),
    valueOf: (node) => this.valueOf(node),
  };

  /** The v1 base an identifier / property access stands for. */
  baseOf(node: Node): string | undefined {
    const n = unwrapExpression(node);
    if (this.baseCache.has(n)) return this.baseCache.get(n) ?? undefined;
    this.baseCache.set(n, null);
    let result: string | undefined;
    if (Node.isIdentifier(n)) {
      const b = resolveIdentifier(n);
      if (b?.kind === "import") {
        const s = this.imported(b);
        if (s?.kind === "base") result = s.value;
      } else if (b?.kind === "var" && b.init && b.path.length === 0) {
        result = this.baseValueOf(b.init);
      } else if (b?.kind === "param") {
        const init = (b.decl as any).getInitializer?.() as Node | undefined;
        if (init && b.path.length === 0) result = this.baseValueOf(init);
      }
    } else if (Node.isPropertyAccessExpression(n)) {
      const obj = unwrapExpression(n.getExpression());
      if (Node.isIdentifier(obj)) {
        const b = resolveIdentifier(obj);
        if (b?.kind === "import" && b.name === "*") {
          const s = this.imported(b, n.getName());
          if (s?.kind === "base") result = s.value;
        }
      }
      if (result === undefined) {
        const v = this.valueOf(n);
        if (v) result = this.baseValueOf(v);
      }
    }
    this.baseCache.set(n, result ?? null);
    return result;
  }

  private baseValueOf(expr: Node): string | undefined {
    const parts = resolveParts(expr, this.urlContext);
    return parts.length === 1 && parts[0]!.kind === "base" ? parts[0]!.value : undefined;
  }

  /** What a name stands for: a variable's initializer, or a property of a const object literal. */
  valueOf(node: Node): Node | undefined {
    const n = unwrapExpression(node);
    if (Node.isIdentifier(n)) {
      const b = resolveIdentifier(n);
      if (b?.kind === "var" && b.init && b.path.length === 0) return b.init;
      return undefined;
    }
    if (Node.isPropertyAccessExpression(n)) {
      const obj = this.valueOf(n.getExpression());
      const target = obj && unwrapExpression(obj);
      if (target && Node.isObjectLiteralExpression(target)) {
        const prop = target.getProperty(n.getName());
        if (prop && Node.isPropertyAssignment(prop)) return prop.getInitializer();
      }
    }
    return undefined;
  }

  private objectLiteral(node: Node | undefined): Node | undefined {
    if (!node) return undefined;
    const n = unwrapExpression(node);
    if (Node.isObjectLiteralExpression(n)) return n;
    if (Node.isIdentifier(n)) {
      const v = this.valueOf(n);
      const u = v && unwrapExpression(v);
      if (u && Node.isObjectLiteralExpression(u)) return u;
    }
    return undefined;
  }

  private prop(obj: Node | undefined, name: string): Node | undefined {
    if (!obj || !Node.isObjectLiteralExpression(obj)) return undefined;
    const p = obj.getProperty(name);
    if (p && Node.isPropertyAssignment(p)) return p.getInitializer();
    if (p && Node.isShorthandPropertyAssignment(p)) return p.getNameNode();
    return undefined;
  }

  private external(obj: Node | undefined, key: string, join: JoinMode): External | undefined {
    const v = this.prop(obj, key);
    if (!v) return undefined;
    const parts = resolveParts(v, this.urlContext);
    if (parts.length === 1 && parts[0]!.kind === "base") return { value: parts[0]!.value, node: v, join };
    return undefined;
  }

  /** What a callee's root value is: a known HTTP library, an instance of one, or a request helper. */
  rootOf(node: Node, depth = 0): Root | undefined {
    const n = unwrapExpression(node);
    if (depth > 4) return undefined;
    if (Node.isIdentifier(n)) {
      const b = resolveIdentifier(n);
      if (!b) return n.getText() === "fetch" ? { lib: "fetch" } : undefined;
      if (b.kind === "import") {
        const m = b.module;
        if (FETCH_MODULES.has(m)) return { lib: "fetch" };
        if (m === "axios") return b.name === "*" || b.name === "default" || b.name === "axios" ? { lib: "axios" } : undefined;
        if (m === "got") return { lib: "got" };
        if (m === "ky" || m === "ky-universal") return { lib: "ky" };
        if (m === "undici") {
          if (b.name === "fetch") return { lib: "fetch" };
          if (b.name === "request") return { lib: "undici-request" };
          if (b.name === "*" || b.name === "default") return { lib: "undici-ns" };
          return undefined;
        }
        const s = this.imported(b);
        if (s?.kind === "helper") return { lib: "helper", sig: s, name: n.getText() };
        return undefined;
      }
      if (b.kind === "function") {
        const sig = this.helperSignature(b.decl);
        return sig ? { lib: "helper", sig, name: n.getText() } : undefined;
      }
      if (b.kind === "var" && b.init && b.path.length === 0) {
        const init = unwrapExpression(b.init);
        if (isFunctionLike(init)) {
          const sig = this.helperSignature(init);
          return sig ? { lib: "helper", sig, name: n.getText() } : undefined;
        }
        if (Node.isCallExpression(init)) {
          const callee = unwrapExpression(init.getExpression());
          if (Node.isPropertyAccessExpression(callee)) {
            const parent = this.rootOf(callee.getExpression(), depth + 1);
            const name = callee.getName();
            const config = this.objectLiteral(init.getArguments()[0]);
            if (parent?.lib === "axios" && name === "create") {
              return { lib: "axios", instance: this.external(config, "baseURL", "slash") ?? parent.instance };
            }
            if ((parent?.lib === "got" && name === "extend") || (parent?.lib === "ky" && (name === "create" || name === "extend"))) {
              return { lib: parent.lib, instance: this.external(config, "prefixUrl", "slash") ?? parent.instance };
            }
          }
        }
        if (Node.isIdentifier(init) || Node.isPropertyAccessExpression(init)) return this.rootOf(init, depth + 1);
      }
      return undefined;
    }
    if (Node.isPropertyAccessExpression(n)) {
      const obj = unwrapExpression(n.getExpression());
      const name = n.getName();
      if (Node.isIdentifier(obj) && ["globalThis", "window", "global", "self"].includes(obj.getText()) && name === "fetch" && !resolveIdentifier(obj)) return { lib: "fetch" };
      const parent = this.rootOf(obj, depth + 1);
      if (parent?.lib === "undici-ns") return name === "fetch" ? { lib: "fetch" } : name === "request" ? { lib: "undici-request" } : undefined;
      if (parent?.lib === "axios" && name === "default") return parent;
      if (Node.isIdentifier(obj)) {
        const b = resolveIdentifier(obj);
        if (b?.kind === "import" && b.name === "*") {
          const s = this.imported(b, name);
          if (s?.kind === "helper") return { lib: "helper", sig: s, name: n.getText() };
        }
      }
    }
    return undefined;
  }

  /** Reads an HTTP call's URL, method, body and options. */
  httpCall(call: CallExpression): HttpCall | undefined {
    const callee = unwrapExpression(call.getExpression());
    const args = call.getArguments();
    let root = this.rootOf(callee);
    let verb: string | undefined;
    let verbNode: Node | undefined;
    if (!root && Node.isPropertyAccessExpression(callee)) {
      const parent = this.rootOf(callee.getExpression());
      const name = callee.getName();
      if (parent && (parent.lib === "axios" || parent.lib === "got" || parent.lib === "ky") && (VERBS.has(name) || name === "request")) {
        root = parent;
        if (name !== "request") {
          verb = name;
          verbNode = callee.getNameNode();
        }
      }
    }
    if (!root || root.lib === "undici-ns") return undefined;
    if (root.lib === "helper") return this.helperCall(call, root.sig);
    const lib = root.lib;
    const instance = "instance" in root ? root.instance : undefined;
    const out: HttpCall = { call, lib, method: { kind: "default", value: "GET" }, bodyKey: lib === "axios" ? "data" : lib === "got" || lib === "ky" ? "json" : "body" };
    let options: Node | undefined;
    if (lib === "fetch" || lib === "undici-request") {
      out.urlNode = args[0];
      options = args[1];
    } else if (lib === "axios") {
      const first = args[0] && this.objectLiteral(args[0]);
      if (verb) {
        out.urlNode = args[0];
        const hasData = verb === "post" || verb === "put" || verb === "patch";
        options = args[hasData ? 2 : 1];
        if (hasData && args[1]) out.body = { node: args[1], stringify: false };
        out.bodyKey = "arg";
      } else if (first && args.length === 1) {
        options = first;
        out.urlNode = this.prop(first, "url");
      } else {
        out.urlNode = args[0];
        options = args[1];
      }
      const cfg = this.objectLiteral(options);
      out.external = this.external(cfg, "baseURL", "slash") ?? instance;
    } else {
      const first = args[0] && this.objectLiteral(args[0]);
      if (first && args.length === 1 && !verb) {
        options = first;
        out.urlNode = this.prop(first, "url");
      } else {
        out.urlNode = args[0];
        options = args[1];
      }
      out.external = this.external(this.objectLiteral(options), "prefixUrl", "slash") ?? instance;
    }
    const opts = this.objectLiteral(options);
    out.options = opts ?? options;
    if (verb) {
      out.method = { kind: "verb", value: verb.toUpperCase() as HttpMethod, node: verbNode };
    } else if (options && !opts) {
      out.method = { kind: "unknown" };
    } else {
      const m = this.prop(opts, "method");
      if (m) {
        const lit = literalText(unwrapExpression(m));
        out.method = lit !== undefined ? { kind: "literal", value: lit.toUpperCase() as HttpMethod, node: unwrapExpression(m) } : { kind: "unknown", node: m };
      }
    }
    if (opts && out.bodyKey !== "arg") {
      const key = lib === "axios" ? "data" : lib === "got" || lib === "ky" ? "json" : "body";
      const b = this.prop(opts, key);
      if (b) out.body = this.bodyOf(b, (opts as any).getProperty(key) as Node);
    }
    return out;
  }

  private bodyOf(node: Node, prop?: Node): HttpCall["body"] {
    const n = unwrapExpression(node);
    if (Node.isCallExpression(n)) {
      const c = n.getExpression();
      if (Node.isPropertyAccessExpression(c) && c.getText() === "JSON.stringify" && n.getArguments()[0]) return { node: n.getArguments()[0]!, stringify: true, prop };
    }
    return { node, stringify: false, prop };
  }

  private helperCall(call: CallExpression, sig: HelperSignature): HttpCall {
    const args = call.getArguments();
    const out: HttpCall = { call, lib: "helper", helper: sig, urlNode: args[sig.pathIndex], method: { kind: "default", value: "GET" }, bodyKey: "arg" };
    out.external = { value: sig.base, node: null, join: "concat" };
    if (sig.methodIndex !== undefined) {
      const m = args[sig.methodIndex];
      if (m) {
        const lit = literalText(unwrapExpression(m));
        out.method = lit !== undefined ? { kind: "literal", value: lit.toUpperCase() as HttpMethod, node: unwrapExpression(m) } : { kind: "unknown", node: m };
      }
      if (sig.bodyIndex !== undefined && args[sig.bodyIndex]) out.body = this.bodyOf(args[sig.bodyIndex]!);
    } else if (sig.optionsIndex !== undefined) {
      const raw = args[sig.optionsIndex];
      const opts = this.objectLiteral(raw);
      out.options = opts ?? raw;
      out.bodyKey = "body";
      if (raw && !opts) out.method = { kind: "unknown" };
      const m = this.prop(opts, "method");
      if (m) {
        const lit = literalText(unwrapExpression(m));
        out.method = lit !== undefined ? { kind: "literal", value: lit.toUpperCase() as HttpMethod, node: unwrapExpression(m) } : { kind: "unknown", node: m };
      }
      const b = this.prop(opts, "body");
      if (b) {
        out.body = this.bodyOf(b, (opts as any).getProperty("body"));
        if (!sig.serialisesBody && !out.body!.stringify) out.body = undefined;
      }
    }
    return out;
  }

  /**
   * A function is a request helper when one of its parameters is the path of an HTTP call on a
   * v1 base: `fetch(BASE + path, …)`, `axios.request({ url: path, … })` on a v1 instance.
   */
  helperSignature(fn: Node): HelperSignature | null {
    if (this.helperCache.has(fn)) return this.helperCache.get(fn)!;
    this.helperCache.set(fn, null);
    let sig: HelperSignature | null = null;
    const calls = fn.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => enclosingFunction(c) === fn);
    for (const call of calls) {
      const http = this.httpCall(call);
      if (!http || http.lib === "helper" || !http.urlNode) continue;
      const parts = resolveParts(http.urlNode, this.urlContext);
      const url = locate(parts, http.external);
      if (!url || !isDynamicPath(url)) continue;
      const hole = parts.find((p) => p.kind === "hole");
      if (!hole || !Node.isIdentifier(hole.node)) continue;
      const pb = resolveIdentifier(hole.node);
      if (pb?.kind !== "param" || pb.fn !== fn || pb.path.length) continue;
      const base = url.anchor?.value ?? url.inlineBase;
      sig = { kind: "helper", base, pathIndex: pb.index, returnsBody: false, serialisesBody: false };
      const params = (fn as any).getParameters() as Node[];
      const paramOf = (node: Node | undefined): Binding | undefined => {
        const u = node && unwrapExpression(node);
        if (!u) return undefined;
        if (Node.isIdentifier(u)) {
          const b = resolveIdentifier(u);
          return b?.kind === "param" && b.fn === fn ? b : undefined;
        }
        if (Node.isPropertyAccessExpression(u)) return paramOf(u.getExpression());
        return undefined;
      };
      const mb = paramOf(http.method.node);
      const bb = http.body ? paramOf(http.body.node) : undefined;
      if (mb?.kind === "param" && mb.path.length === 0 && !Node.isPropertyAccessExpression(unwrapExpression(http.method.node!))) {
        sig.methodIndex = mb.index;
        if (bb?.kind === "param") sig.bodyIndex = bb.index;
        else {
          const bodyParam = params.findIndex((p, i) => i !== pb.index && i !== mb.index && /body|data|payload|json/i.test((p as any).getName?.() ?? ""));
          if (bodyParam >= 0) sig.bodyIndex = bodyParam;
        }
        sig.serialisesBody = !!http.body?.stringify || http.lib === "axios" || http.lib === "got" || http.lib === "ky";
      } else {
        const other = params.findIndex((_, i) => i !== pb.index);
        const ob = mb ?? bb ?? paramOf(http.options) ?? (other >= 0 ? ({ kind: "param", index: other } as any) : undefined);
        if (ob?.kind === "param") sig.optionsIndex = ob.index;
        sig.serialisesBody = !!http.body?.stringify && bb?.kind === "param";
      }
      sig.returnsBody = this.returnsBody(http, fn);
      break;
    }
    this.helperCache.set(fn, sig);
    return sig;
  }

  private returnsBody(http: HttpCall, fn: Node): boolean {
    for (const site of this.bodySites(http)) {
      if (site.kind === "binding") continue;
      const parent = site.node.getParent();
      if (parent && Node.isReturnStatement(parent)) return true;
      if (parent && Node.isArrowFunction(parent) && parent === fn) return true;
      if (parent && Node.isVariableDeclaration(parent) && Node.isIdentifier(parent.getNameNode())) {
        const name = parent.getName();
        const returned = fn.getDescendantsOfKind(SyntaxKind.ReturnStatement).some((r) => {
          const e = r.getExpression();
          return e && unwrapExpression(e).getText() === name;
        });
        if (returned) return true;
      }
    }
    return false;
  }

  // ── response bodies ──

  /** Where the parsed response body of a call is read. */
  bodySites(http: HttpCall): BodySite[] {
    const sites: BodySite[] = [];
    const addPromise = (p: Node) => {
      const parent = skipParens(p).getParent();
      if (parent && Node.isAwaitExpression(parent)) sites.push({ kind: "value", node: parent });
      else sites.push({ kind: "promise", node: p });
    };
    const call = http.call;
    if (http.lib === "helper") {
      if (http.helper!.returnsBody) addPromise(call);
      return sites;
    }
    const outer = skipParens(call);
    const parent = outer.getParent();
    // got / ky: `await got(url).json()`
    if ((http.lib === "got" || http.lib === "ky") && parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "json") {
      const c = parent.getParent();
      if (c && Node.isCallExpression(c)) addPromise(c);
      return sites;
    }
    // `.then((res) => res.json())`
    if (parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "then") {
      const thenCall = parent.getParent();
      const cb = thenCall && Node.isCallExpression(thenCall) ? thenCall.getArguments()[0] : undefined;
      if (cb && Node.isArrowFunction(cb)) {
        const body = unwrapExpression(cb.getBody());
        const p = cb.getParameters()[0];
        const pname = p?.getName();
        if (pname && this.readsBody(body, pname, http.lib)) addPromise(thenCall!);
      }
      return sites;
    }
    const awaited = parent && Node.isAwaitExpression(parent) ? parent : undefined;
    if (!awaited) return sites;
    const up = skipParens(awaited).getParent();
    if (!up) return sites;
    if (Node.isPropertyAccessExpression(up)) {
      this.responseMember(up, http.lib, addPromise, sites);
      return sites;
    }
    if (Node.isVariableDeclaration(up)) {
      const name = up.getNameNode();
      const scope = enclosingFunction(up);
      if (Node.isIdentifier(name)) {
        for (const ref of referencesOf(scope, name)) {
          const p = ref.getParent();
          if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === ref) this.responseMember(p, http.lib, addPromise, sites);
        }
      } else if (Node.isObjectBindingPattern(name)) {
        for (const el of name.getElements()) {
          const key = el.getPropertyNameNode()?.getText() ?? el.getName();
          if (http.lib === "axios" && key === "data") sites.push({ kind: "binding", node: el });
          if (http.lib === "undici-request" && key === "body" && Node.isIdentifier(el.getNameNode())) {
            for (const ref of referencesOf(scope, el.getNameNode())) {
              const p = ref.getParent();
              if (p && Node.isPropertyAccessExpression(p) && p.getName() === "json" && Node.isCallExpression(p.getParent())) addPromise(p.getParent()!);
            }
          }
        }
      }
    }
    return sites;
  }

  private readsBody(expr: Node, name: string, lib: HttpCall["lib"]): boolean {
    const t = expr.getText().replace(/\s/g, "");
    if (lib === "axios") return t === `${name}.data`;
    if (lib === "undici-request") return t === `${name}.body.json()`;
    return t === `${name}.json()`;
  }

  private responseMember(access: Node & { getName(): string; getParent(): Node | undefined }, lib: HttpCall["lib"], addPromise: (p: Node) => void, sites: BodySite[]): void {
    const name = access.getName();
    const parent = access.getParent();
    if ((lib === "fetch" || lib === "got" || lib === "ky") && name === "json" && parent && Node.isCallExpression(parent)) addPromise(parent);
    else if (lib === "axios" && name === "data") sites.push({ kind: "value", node: access });
    else if (lib === "undici-request" && name === "body" && parent && Node.isPropertyAccessExpression(parent) && parent.getName() === "json") {
      const c = parent.getParent();
      if (c && Node.isCallExpression(c)) addPromise(c);
    }
  }

  // ── edits and findings ──

  private edit(e: Edit): void {
    this.edits.push(e);
  }

  private statementOf(node: Node): Node {
    let n: Node = node;
    for (;;) {
      const p = n.getParent();
      if (!p || Node.isSourceFile(p) || Node.isBlock(p) || Node.isCaseClause(p) || Node.isDefaultClause(p) || Node.isModuleBlock(p)) return n;
      n = p;
    }
  }

  /** Leaves `// TODO(v2-migration) …` above the statement (once: an identical mark is not repeated). */
  private todo(at: Node, op: string, category: Category, reason: string, advice: string): void {
    const st = this.statementOf(at);
    const start = st.getStart();
    const lineStart = this.text.lastIndexOf("\n", start - 1) + 1;
    const indent = /^[ \t]*/.exec(this.text.slice(lineStart))![0];
    const line = `// ${TODO_TAG} ${op} (${category}): ${oneLine(reason)}; advice: ${oneLine(advice)}`;
    this.emittedTodos.add(`${this.sf.getLineAndColumnAtPos(start).line}|${line}`);
    // Already there? Look at the comment lines right above the statement.
    let pos = lineStart;
    while (pos > 0) {
      const prevStart = this.text.lastIndexOf("\n", pos - 2) + 1;
      const prev = this.text.slice(prevStart, pos - 1).trim();
      if (!prev.startsWith("//")) break;
      if (prev === line) return;
      pos = prevStart;
    }
    const list = this.todos.get(st) ?? [];
    if (list.includes(line)) return;
    list.push(line);
    this.todos.set(st, list);
    this.edit({ start: lineStart, end: lineStart, text: `${indent}${line}\n` });
  }

  private finding(at: Node, f: Omit<Finding, "file" | "line" | "column" | "snippet">): void {
    const pos = this.sf.getLineAndColumnAtPos(at.getStart());
    this.lines ??= this.text.split("\n");
    const lineText = this.lines[pos.line - 1] ?? "";
    this.findings.push({ file: this.options.displayName ?? this.options.fileName, line: pos.line, column: pos.column, snippet: redact(lineText.trim()), ...f });
  }

  /** Processes one HTTP call (library call or helper call). */
  processCall(http: HttpCall): void {
    if (!http.urlNode) return;
    let urlExpr = unwrapExpression(http.urlNode);
    // `url.href`, `url.toString()`, and `const url = new URL(…)` followed to the constructor.
    if (Node.isPropertyAccessExpression(urlExpr) && urlExpr.getName() === "href") urlExpr = unwrapExpression(urlExpr.getExpression());
    if (Node.isCallExpression(urlExpr) && Node.isPropertyAccessExpression(urlExpr.getExpression()) && (urlExpr.getExpression() as any).getName() === "toString") urlExpr = unwrapExpression((urlExpr.getExpression() as any).getExpression());
    if (Node.isIdentifier(urlExpr)) {
      const v = this.valueOf(urlExpr);
      const u = v && unwrapExpression(v);
      if (u && Node.isNewExpression(u)) urlExpr = u;
    }
    let parts;
    let external = http.external;
    if (Node.isNewExpression(urlExpr) && urlExpr.getExpression().getText() === "URL" && (urlExpr.getArguments().length ?? 0) >= 2) {
      const [p, b] = urlExpr.getArguments();
      const bParts = resolveParts(b!, this.urlContext);
      if (bParts.length !== 1 || bParts[0]!.kind !== "base") return;
      external = { value: bParts[0]!.value, node: bParts[0]!.node, join: "url" };
      parts = resolveParts(p!, this.urlContext);
    } else {
      parts = resolveParts(urlExpr.getKind() === SyntaxKind.NewExpression ? (urlExpr as any).getArguments()[0] ?? urlExpr : urlExpr, this.urlContext);
      if (Node.isNewExpression(urlExpr) && urlExpr.getExpression().getText() !== "URL") return;
    }
    const url = locate(parts, external);
    if (!url) return;
    for (const p of parts) this.consumed.add(p.node);
    if (external?.node) this.consumed.add(external.node);
    const at = http.call;
    const fn = enclosingFunction(at);
    const inHelper = http.lib !== "helper" && isDynamicPath(url) && isFunctionLike(fn) && this.helperSignature(fn);
    if (inHelper) {
      // The helper itself: its base becomes v2 (its call sites get v2 paths); it reads errors.
      const e = rewriteUrl(url, null);
      e?.forEach((x) => this.edit(x));
      this.errorReads(http);
      this.finding(at, { operation: null, v1: null, v2: null, category: "auto", reason: "request helper on the v1 base; its call sites are rewritten", advice: "none" });
      return;
    }
    this.callSites++;
    const problems: { reason: string; advice: string }[] = [];
    let opKey: string | null = null;
    let category: Category = "auto";
    let v1: Finding["v1"] = null;
    let v2: Finding["v2"] = null;
    const done = (extra?: () => void) => {
      extra?.();
      if (problems.length && category === "auto") category = "review";
      for (const p of problems) this.todo(at, opKey ?? "base", category, p.reason, p.advice);
      const reason = problems.length ? problems.map((p) => p.reason).join("; ") : `v1 ${v1?.method ?? ""} ${v1?.path ?? ""} becomes v2 ${v2?.method ?? ""} ${v2?.path ?? ""}`.replace(/\s+/g, " ").trim();
      const advice = problems.length ? problems.map((p) => p.advice).join("; ") : "rewritten by `v2-bridge rewrite`";
      this.finding(at, { operation: opKey, v1, v2, category, reason, advice });
      if (!problems.length) this.rewritten++;
    };
    if (url.problem) {
      problems.push({ reason: url.problem, advice: `build the URL from the v2 base ${V2_BASE} by hand` });
      return done();
    }
    if (isDynamicPath(url) || url.path === "") {
      problems.push({ reason: url.path === "" ? "call on the bare v1 base URL" : "the v1 path is computed at run time", advice: "check which v1 operation it calls and use its v2 path (see docs/mapping.md)" });
      return done();
    }
    const known = http.method.kind !== "unknown" ? http.method.value : undefined;
    const candidates = known ? [matchV1(known, url.path)].filter(isMatch) : uniqueMatches(url.path);
    if (!candidates.length) {
      const other = uniqueMatches(url.path);
      problems.push({
        reason: other.length ? `${known} is not a v1 method on ${url.path.replace(/\0/g, "{…}")} (v1 has ${other.map((m) => m.operation.v1.method).join(", ")})` : `${url.path.replace(/\0/g, "{…}")} is not a v1 operation path`,
        advice: "check the call against docs/mapping.md",
      });
      return done();
    }
    const first = candidates[0]!;
    const op = first.operation;
    opKey = candidates.length === 1 ? op.key : null;
    v1 = candidates.length === 1 ? { method: op.v1.method, path: op.v1.path } : null;
    v2 = candidates.length === 1 && op.v2 ? { method: op.v2.method, path: op.v2.path } : null;
    if (candidates.length > 1) {
      const paths = new Set(candidates.map((c) => newPathFor(c, url)));
      const simple = candidates.every((c) => c.operation.v2 && c.operation.v2.method === c.operation.v1.method && !c.operation.request && c.operation.response.kind !== "list");
      if (paths.size === 1 && [...paths][0] !== null) {
        const e = rewriteUrl(url, [...paths][0]!);
        if (e) e.forEach((x) => this.edit(x));
        if (!simple) problems.push({ reason: `HTTP method not known statically (v1 ${candidates.map((c) => c.operation.key).join(" / ")})`, advice: "check the method, request body and response shape against v2" });
        this.errorReads(http);
      } else {
        problems.push({ reason: `HTTP method not known statically (v1 ${candidates.map((c) => c.operation.key).join(" / ")})`, advice: "pass the method as a literal or rewrite the call by hand" });
      }
      return done();
    }
    if (op.status === "no-equivalent") {
      category = "no-equivalent";
      problems.push({ reason: op.decision?.message ?? `${op.key} has no v2 equivalent`, advice: op.decision?.advice ?? "see docs/mapping.md" });
      return done();
    }
    if (!op.v2) {
      problems.push({ reason: `${op.key} has no v2 operation (${op.summary})`, advice: op.decision?.advice ?? `use the v2 OpenAPI document at ${V2_OPENAPI_URL}` });
      return done();
    }
    const newPath = newPathFor(first, url);
    const urlEdits = newPath === null ? null : rewriteUrl(url, newPath);
    if (!urlEdits) {
      problems.push({ reason: "the v2 path cannot be written into this URL expression", advice: `use ${op.v2.method} ${op.v2.path}` });
      return done();
    }
    urlEdits.forEach((x) => this.edit(x));
    this.queryParams(url, op, problems);
    // Method
    if (op.v2.method !== op.v1.method) this.changeMethod(http, op, problems);
    // Fixed body (lifecycle actions)
    if (op.request?.fixedBody) this.addFixedBody(http, op.request.fixedBody, problems);
    if (op.request?.lens) this.convertRequestBody(http, op.request.lens, problems);
    if (op.response.kind === "list") this.unwrapList(http, op.response.wrapper, problems);
    this.errorReads(http);
    this.recordReads(http, op);
    return done();
  }

  /** Query parameters the table drops, emulates or rejects, left in a rewritten URL. */
  private queryParams(url: LocatedUrl, op: OperationMapping, problems: { reason: string; advice: string }[]): void {
    if (!url.query || !op.query) return;
    const q = url.query.split("#")[0]!.replace(/^\?/, "");
    const seen = new Set<string>();
    for (const pair of q.split("&")) {
      const name = pair.split("=")[0]!;
      if (!name || name.includes("\0") || seen.has(name)) continue;
      seen.add(name);
      const m = op.query.find((x) => x.v1 === name);
      if (!m?.decision) continue;
      problems.push({ reason: `query parameter ${name} (${m.decision}): ${m.reason ?? "v2 does not take it"}`, advice: m.advice ?? "see docs/mapping.md" });
    }
  }

  // ── v1 record fields read on responses ──

  private readonly recordDone = new Set<Node>();

  /**
   * Reads of v1 record fields on the response of a known operation: the body variable of a record
   * response (`const pod = await res.json()`, `(await res.json()).x`, axios `res.data.x`), and the
   * elements of a list response (`for (const p of pods)`, `pods.map((p) => …)`). Copy fields are
   * renamed from the record lens; converter fields get a TODO mark. Anything else is not a record
   * the codemod can vouch for, so it is left alone.
   */
  private recordReads(http: HttpCall, op: OperationMapping): void {
    const shape = op.response;
    if (shape.kind !== "record" && shape.kind !== "list") return;
    const lens = lensNamed(shape.lens);
    if (!lens) return;
    const byFirst = new Map<string, { segs: string[]; lens: FieldLens; index: number }[]>();
    for (const f of lens.fields) {
      if (f.only === "toV2") continue;
      f.v1.forEach((v1, index) => {
        const segs = v1.split(".");
        const list = byFirst.get(segs[0]!) ?? [];
        list.push({ segs, lens: f, index });
        byFirst.set(segs[0]!, list);
      });
    }
    for (const list of byFirst.values()) list.sort((a, b) => b.segs.length - a.segs.length);
    const field = (access: Node) => this.recordField(access, byFirst, op);
    const recordRefs = (scope: Node, name: Node) => {
      for (const r of referencesOf(scope, name)) {
        const p = r.getParent();
        if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === r) field(p);
      }
    };
    const elements = (listRef: Node) => {
      const p = skipParens(listRef).getParent();
      if (!p) return;
      if (Node.isForOfStatement(p) && p.getExpression() === skipParens(listRef)) {
        const init = p.getInitializer();
        const decl = Node.isVariableDeclarationList(init) ? init.getDeclarations()[0] : undefined;
        const n = decl?.getNameNode();
        if (n && Node.isIdentifier(n)) recordRefs(p, n);
        return;
      }
      if (Node.isPropertyAccessExpression(p) && ["map", "filter", "find", "forEach", "some", "every", "flatMap", "findLast"].includes(p.getName())) {
        const call = p.getParent();
        const cb = call && Node.isCallExpression(call) ? call.getArguments()[0] : undefined;
        if (cb && (Node.isArrowFunction(cb) || Node.isFunctionExpression(cb))) {
          const n = cb.getParameters()[0]?.getNameNode();
          if (n && Node.isIdentifier(n)) recordRefs(cb, n);
        }
      }
    };
    for (const site of this.bodySites(http)) {
      if (site.kind !== "value") continue;
      const outer = skipParens(site.node);
      const parent = outer.getParent();
      if (!parent) continue;
      if (shape.kind === "record" && Node.isPropertyAccessExpression(parent) && parent.getExpression() === outer) field(parent);
      if (!Node.isVariableDeclaration(parent)) continue;
      const name = parent.getNameNode();
      if (!Node.isIdentifier(name)) continue;
      if (shape.kind === "record") recordRefs(enclosingFunction(parent), name);
      else for (const r of referencesOf(enclosingFunction(parent), name)) elements(r);
    }
  }

  private recordField(access: Node, byFirst: Map<string, { segs: string[]; lens: FieldLens; index: number }[]>, op: OperationMapping): void {
    if (!Node.isPropertyAccessExpression(access) || this.recordDone.has(access)) return;
    this.recordDone.add(access);
    for (const cand of byFirst.get(access.getName()) ?? []) {
      // Dotted v1 paths (`machine.dataCenterId`) must be read as the same chain.
      let last: Node = access;
      let ok = true;
      for (const seg of cand.segs.slice(1)) {
        const up = last.getParent();
        if (!up || !Node.isPropertyAccessExpression(up) || up.getExpression() !== last || up.getName() !== seg) {
          ok = false;
          break;
        }
        last = up;
      }
      if (!ok) continue;
      const f = cand.lens;
      const v1 = cand.segs.join(".");
      if (f.converter) {
        const conv = converterNamed(f.converter);
        const reason = `v1 record field ${v1} is ${f.v2.join(" + ")} in v2 (converter ${f.converter}${conv ? `: ${conv.summary}` : ""})`;
        const advice = `read ${f.v2.map((x) => "." + x).join(" / ")} and convert it the way docs/mapping.md describes for ${f.converter}`;
        this.todo(access, op.key, "review", reason, advice);
        this.finding(access, { operation: op.key, v1: { method: op.v1.method, path: op.v1.path }, v2: op.v2 ? { method: op.v2.method, path: op.v2.path } : null, category: "review", reason, advice });
      } else if (f.v2.length === 1 && f.v2[0] !== v1) {
        const start = (access as any).getNameNode().getStart();
        this.edit({ start, end: (last as any).getNameNode().getEnd(), text: f.v2[0]! });
      }
      return;
    }
  }

  private changeMethod(http: HttpCall, op: OperationMapping, problems: { reason: string; advice: string }[]): void {
    const to = op.v2!.method;
    const node = http.method.node;
    if (http.method.kind === "verb" && node) {
      this.edit({ start: node.getStart(), end: node.getEnd(), text: to.toLowerCase() });
    } else if (http.method.kind === "literal" && node) {
      const old = literalText(node)!;
      const text = old === old.toLowerCase() ? to.toLowerCase() : to;
      const q = node.getText()[0]!;
      this.edit({ start: node.getStart(), end: node.getEnd(), text: `${q}${text}${q === "`" ? "`" : q}` });
    } else {
      problems.push({ reason: `v2 uses ${to} instead of ${op.v1.method}, and the method here is not a literal`, advice: `send ${to} ${op.v2!.path}` });
    }
  }

  private addFixedBody(http: HttpCall, body: Record<string, unknown>, problems: { reason: string; advice: string }[]): void {
    const value = renderValue(body, this.quote);
    const existing = http.body?.node;
    if (existing) {
      const lit = evaluateLiteral(unwrapExpression(existing));
      if (lit && JSON.stringify(lit.value) === JSON.stringify(body)) return;
      if (!(lit && typeof lit.value === "object" && lit.value && !Array.isArray(lit.value) && Object.keys(lit.value).length === 0)) {
        problems.push({ reason: `v2 expects the body ${JSON.stringify(body)} here and the call already sends one`, advice: `send ${JSON.stringify(body)}` });
        return;
      }
      this.edit({ start: unwrapExpression(existing).getStart(), end: unwrapExpression(existing).getEnd(), text: value });
      return;
    }
    const args = http.call.getArguments();
    if (http.bodyKey === "arg") {
      if (http.lib === "helper") {
        const sig = http.helper!;
        if (sig.bodyIndex !== undefined) {
          const needed = sig.bodyIndex;
          if (args.length === needed) return void this.edit({ start: args[args.length - 1]!.getEnd(), end: args[args.length - 1]!.getEnd(), text: `, ${value}` });
        }
        if (sig.optionsIndex !== undefined) return this.addToOptions(http, "body", sig.serialisesBody ? value : `JSON.stringify(${value})`, problems);
        problems.push({ reason: `v2 expects the body ${JSON.stringify(body)} and the helper call has no body argument`, advice: `send ${JSON.stringify(body)}` });
        return;
      }
      // axios.post(url) → axios.post(url, body)
      const urlArg = args[0]!;
      if (args.length === 1) return void this.edit({ start: urlArg.getEnd(), end: urlArg.getEnd(), text: `, ${value}` });
      problems.push({ reason: `v2 expects the body ${JSON.stringify(body)}`, advice: `pass ${JSON.stringify(body)} as the request data` });
      return;
    }
    const json = http.bodyKey === "body" ? `JSON.stringify(${value})` : value;
    this.addToOptions(http, http.bodyKey, json, problems, http.bodyKey === "body" && http.lib !== "helper");
  }

  private addToOptions(http: HttpCall, key: string, value: string, problems: { reason: string; advice: string }[], jsonHeader = false): void {
    const opts = http.options && unwrapExpression(http.options);
    const args = http.call.getArguments();
    if (opts && Node.isObjectLiteralExpression(opts)) {
      const props = opts.getProperties();
      let add = `${key}: ${value}`;
      if (jsonHeader) {
        const headers = this.prop(opts, "headers");
        const h = headers && (this.objectLiteral(headers) ?? unwrapExpression(headers));
        const shared = !!headers && !Node.isObjectLiteralExpression(unwrapExpression(headers));
        if (!headers) add += `, headers: { ${this.q("Content-Type")}: ${this.q("application/json")} }`;
        else if (Node.isObjectLiteralExpression(h) && h.getProperties().some((p) => /content-type/i.test((p as any).getName?.() ?? p.getText()))) {
          // already JSON
        } else if (Node.isObjectLiteralExpression(h) && !shared) {
          const last = h.getProperties().at(-1);
          if (last) this.edit({ start: last.getEnd(), end: last.getEnd(), text: `, ${this.q("Content-Type")}: ${this.q("application/json")}` });
          else this.edit({ start: h.getStart(), end: h.getEnd(), text: `{ ${this.q("Content-Type")}: ${this.q("application/json")} }` });
        } else {
          problems.push({ reason: "v2 reads the action from a JSON body; the headers here are built elsewhere", advice: "make sure they include Content-Type: application/json" });
        }
      }
      const last = props.at(-1);
      if (last) {
        const multiline = opts.getText().includes("\n");
        if (multiline) {
          const lineStart = this.text.lastIndexOf("\n", last.getStart() - 1) + 1;
          const indent = /^[ \t]*/.exec(this.text.slice(lineStart))![0];
          const trailingComma = this.text.slice(last.getEnd(), opts.getEnd()).trimStart().startsWith(",");
          const insertAt = trailingComma ? this.text.indexOf(",", last.getEnd()) + 1 : last.getEnd();
          this.edit({ start: insertAt, end: insertAt, text: `${trailingComma ? "" : ","}\n${indent}${add}${trailingComma ? "," : ""}` });
        } else this.edit({ start: last.getEnd(), end: last.getEnd(), text: `, ${add}` });
      } else this.edit({ start: opts.getStart(), end: opts.getEnd(), text: `{ ${add} }` });
      return;
    }
    if (!http.options) {
      const urlArg = args[0];
      if (!urlArg) return;
      let add = `${key}: ${value}`;
      if (jsonHeader) add += `, headers: { ${this.q("Content-Type")}: ${this.q("application/json")} }`;
      const anchor = http.lib === "helper" ? args[args.length - 1]! : urlArg;
      this.edit({ start: anchor.getEnd(), end: anchor.getEnd(), text: `, { ${add} }` });
      return;
    }
    problems.push({ reason: `v2 needs ${key} ${value} and the options are built elsewhere`, advice: `add ${key}: ${value}` });
  }

  private q(s: string): string {
    return this.quote + s + this.quote;
  }

  private convertRequestBody(http: HttpCall, lens: string, problems: { reason: string; advice: string }[]): void {
    if (!http.body) return;
    let node = unwrapExpression(http.body.node);
    if (Node.isIdentifier(node)) {
      const b = resolveIdentifier(node);
      const init = b?.kind === "var" && b.path.length === 0 && b.init ? unwrapExpression(b.init) : undefined;
      if (init && Node.isObjectLiteralExpression(init) && countIdentifiers(enclosingFunction(node), node.getText()) === 2 && !(b!.decl as any).getTypeNode?.()) node = init;
    }
    if (!Node.isObjectLiteralExpression(node)) {
      problems.push({ reason: `the v1 body is built elsewhere (${oneLine(http.body.node.getText()).slice(0, 40)}); it must be converted with the ${lens} lens`, advice: "rewrite the flat v1 fields into the nested v2 body (see docs/mapping.md)" });
      return;
    }
    const result = convertBody(node, lens, this.quote);
    if (result.text !== null) this.edit({ start: node.getStart(), end: node.getEnd(), text: result.text });
    for (const p of result.problems) problems.push({ reason: p.reason, advice: p.advice });
  }

  private unwrapList(http: HttpCall, wrapper: string, problems: { reason: string; advice: string }[]): void {
    for (const site of this.bodySites(http)) {
      if (site.kind === "binding") {
        const el = site.node as any;
        const local = el.getNameNode().getText();
        this.edit({ start: el.getStart(), end: el.getEnd(), text: `data: { ${wrapper}: ${local} }` });
        continue;
      }
      this.retypeJson(site.node, wrapper);
      if (site.kind === "promise") {
        const fn = enclosingFunction(site.node);
        const parent = skipParens(site.node).getParent();
        if (parent && Node.isReturnStatement(parent) && isAsyncFunction(fn)) {
          this.edit({ start: site.node.getStart(), end: site.node.getStart(), text: "(await " });
          this.edit({ start: site.node.getEnd(), end: site.node.getEnd(), text: `).${wrapper}` });
        } else {
          this.edit({ start: site.node.getEnd(), end: site.node.getEnd(), text: `.then((body) => body.${wrapper})` });
        }
        continue;
      }
      const v = site.node;
      const outer = skipParens(v);
      const parent = outer.getParent();
      if (parent && Node.isVariableDeclaration(parent) && Node.isIdentifier(parent.getNameNode())) {
        const nameNode = parent.getNameNode();
        const refs = referencesOf(enclosingFunction(parent), nameNode);
        const errorReads = refs.filter((r) => isErrorRead(r));
        if (errorReads.length) {
          for (const r of refs) {
            if (isErrorRead(r)) continue;
            const rp = r.getParent();
            if (rp && Node.isShorthandPropertyAssignment(rp)) {
              problems.push({ reason: `the list body is also read for errors; unwrap .${wrapper} where it is used`, advice: `read ${nameNode.getText()}.${wrapper}` });
              continue;
            }
            this.edit({ start: r.getEnd(), end: r.getEnd(), text: `.${wrapper}` });
          }
          continue;
        }
        if (nameNode.getText() === wrapper && !(parent as any).getTypeNode?.()) {
          this.edit({ start: nameNode.getStart(), end: nameNode.getEnd(), text: `{ ${wrapper} }` });
          continue;
        }
      }
      if (Node.isAwaitExpression(v) && outer !== v) {
        this.edit({ start: outer.getEnd(), end: outer.getEnd(), text: `.${wrapper}` });
      } else if (Node.isAwaitExpression(v)) {
        this.edit({ start: v.getStart(), end: v.getStart(), text: "(" });
        this.edit({ start: v.getEnd(), end: v.getEnd(), text: `).${wrapper}` });
      } else {
        this.edit({ start: v.getEnd(), end: v.getEnd(), text: `.${wrapper}` });
      }
    }
  }

  /** `got(url).json<Pod[]>()` → `.json<{ pods: Pod[] }>()`: the type argument follows the unwrap. */
  private retypeJson(node: Node, wrapper: string): void {
    let call: Node | undefined = node;
    if (call && Node.isAwaitExpression(call)) call = unwrapExpression(call.getExpression());
    if (!call || !Node.isCallExpression(call)) return;
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getName() !== "json") return;
    const [t] = call.getTypeArguments();
    if (t && call.getTypeArguments().length === 1) this.edit({ start: t.getStart(), end: t.getEnd(), text: `{ ${wrapper}: ${t.getText()} }` });
  }

  /** `.message` / `.error` read from a v1 error body → the problem fields (`.detail` / `.title`). */
  errorReads(http: HttpCall): void {
    for (const site of this.bodySites(http)) {
      if (site.kind !== "value") continue;
      const outer = skipParens(site.node);
      const parent = outer.getParent();
      if (parent && Node.isPropertyAccessExpression(parent)) this.renameErrorField(parent);
      if (parent && Node.isVariableDeclaration(parent)) {
        const name = parent.getNameNode();
        if (Node.isIdentifier(name)) {
          for (const r of referencesOf(enclosingFunction(parent), name)) {
            const rp = r.getParent();
            if (rp && Node.isPropertyAccessExpression(rp) && rp.getExpression() === r) this.renameErrorField(rp);
          }
        } else if (Node.isObjectBindingPattern(name)) {
          for (const el of name.getElements()) {
            const prop = el.getPropertyNameNode();
            const key = prop?.getText() ?? el.getName();
            const to = (errorFieldMap as Record<string, string>)[key];
            if (!to || key === "status") continue;
            if (prop) this.edit({ start: prop.getStart(), end: prop.getEnd(), text: to });
            else this.edit({ start: el.getStart(), end: el.getStart(), text: `${to}: ` });
          }
        }
      }
    }
  }

  private renameErrorField(access: Node): void {
    if (!Node.isPropertyAccessExpression(access)) return;
    const name = access.getName();
    if (name !== "message" && name !== "error") return;
    const to = errorFieldMap[name];
    const nn = access.getNameNode();
    this.edit({ start: nn.getStart(), end: nn.getEnd(), text: to });
  }

  /** axios / got errors: `err.response.data.message` → `.detail` in files that call v1. */
  axiosErrorReads(): void {
    for (const n of this.sf.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
      const name = n.getName();
      if (name !== "message" && name !== "error") continue;
      const inner = n.getExpression().getText().replace(/\?\./g, ".").replace(/\s/g, "");
      if (/\.response\.data$/.test(inner)) this.renameErrorField(n);
    }
  }

  /** v1 URLs and bases outside recognised calls. */
  strays(): void {
    const literals: Node[] = [
      ...this.sf.getDescendantsOfKind(SyntaxKind.StringLiteral),
      ...this.sf.getDescendantsOfKind(SyntaxKind.NoSubstitutionTemplateLiteral),
      ...this.sf.getDescendantsOfKind(SyntaxKind.TemplateHead),
    ].sort((a, b) => a.getStart() - b.getStart());
    for (const n of literals) this.stray(n);
  }

  private stray(n: Node): void {
    {
      const value = Node.isTemplateHead(n) ? n.getLiteralText() : (n as any).getLiteralValue() as string;
      if (!value.includes(V1_HOST)) return;
      if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) {
        if (isBaseOnly(value)) {
          this.baseLiteral(n, value);
          return;
        }
      }
      if (this.consumed.has(n)) return;
      // The outermost string expression around it.
      let expr: Node = Node.isTemplateHead(n) ? n.getParent()! : n;
      for (;;) {
        const p = expr.getParent();
        if (p && (Node.isParenthesizedExpression(p) || (Node.isBinaryExpression(p) && p.getOperatorToken().getKind() === SyntaxKind.PlusToken))) expr = p;
        else break;
      }
      if (Node.isImportDeclaration(expr.getParent() ?? expr)) return;
      const parts = resolveParts(expr, this.urlContext);
      const url = locate(parts, undefined);
      parts.forEach((p) => this.consumed.add(p.node));
      if (!url || url.problem || isDynamicPath(url) || url.path === "") {
        if (url && !url.problem && (isDynamicPath(url) || url.path === "")) {
          const e = rewriteUrl(url, null);
          if (e) e.forEach((x) => this.edit(x));
          this.finding(n, { operation: null, v1: null, v2: null, category: "auto", reason: "v1 base URL", advice: `now the v2 base ${V2_BASE}` });
          return;
        }
        this.finding(n, { operation: null, v1: null, v2: null, category: "review", reason: url?.problem ?? "string mentions the v1 host", advice: `check whether it is a v1 API address and use the v2 base ${V2_BASE}` });
        return;
      }
      this.callSites++;
      const cands = uniqueMatches(url.path);
      const paths = new Set(cands.map((c) => newPathFor(c, url)));
      const keys = cands.map((c) => c.operation.key).join(" / ");
      const single = cands.length === 1 ? cands[0]!.operation : null;
      const reason = cands.length ? `v1 URL not passed to a recognised HTTP call (v1 ${keys})` : `${url.path.replace(/\0/g, "{…}")} is not a v1 operation path`;
      if (cands.length && paths.size === 1 && [...paths][0] !== null && cands.every((c) => c.operation.v2)) {
        const e = rewriteUrl(url, [...paths][0]!);
        if (e) e.forEach((x) => this.edit(x));
        const advice = "check the HTTP method, request body and response shape against v2 (docs/mapping.md)";
        this.todo(n, single?.key ?? cands[0]!.operation.key, "review", reason, advice);
        this.finding(n, { operation: single?.key ?? null, v1: single ? { method: single.v1.method, path: single.v1.path } : null, v2: single?.v2 ? { method: single.v2.method, path: single.v2.path } : null, category: "review", reason, advice });
        return;
      }
      const noEq = single && single.status === "no-equivalent";
      const category: Category = noEq ? "no-equivalent" : "review";
      const advice = noEq ? single!.decision?.advice ?? "see docs/mapping.md" : "rewrite it by hand (docs/mapping.md)";
      const why = noEq ? single!.decision?.message ?? reason : reason;
      this.todo(n, single?.key ?? "base", category, why, advice);
      this.finding(n, { operation: single?.key ?? null, v1: single ? { method: single.v1.method, path: single.v1.path } : null, v2: null, category, reason: why, advice });
    }
  }

  private baseLiteral(n: Node, value: string): void {
    const q = n.getText()[0]!;
    this.edit({ start: n.getStart(), end: n.getEnd(), text: `${q}${v2BaseFor(value)}${q}` });
    const parent = skipParens(n).getParent();
    let envName: string | undefined;
    if (parent && Node.isBinaryExpression(parent) && parent.getRight() === skipParens(n)) {
      const left = parent.getLeft().getText();
      if (/^(process\.env|import\.meta\.env)/.test(left)) envName = left;
    }
    if (envName) {
      const reason = `the base URL comes from ${envName} when it is set`;
      const advice = `point ${envName} at ${V2_BASE} wherever it is configured`;
      this.todo(n, "base", "review", reason, advice);
      this.finding(n, { operation: null, v1: null, v2: null, category: "review", reason, advice });
    } else {
      this.finding(n, { operation: null, v1: null, v2: null, category: "auto", reason: "v1 base URL", advice: `becomes the v2 base ${V2_BASE}` });
    }
  }

  /** TODO marks left by an earlier run still count as findings (the audit after `rewrite --write`). */
  todoFindings(): void {
    const lines = this.text.split("\n");
    lines.forEach((line, i) => {
      const m = TODO_LINE.exec(line);
      if (!m) return;
      const [, op, category, reason, advice] = m;
      const operation = op === "base" ? null : op!;
      const mapped = operation ? operations.find((o) => o.key === operation) : undefined;
      let next = i + 1;
      while (next < lines.length && TODO_LINE.test(lines[next]!)) next++;
      const target = lines[next] ?? line;
      // A mark this run (re)emitted for a site it still finds is already that site's finding.
      if (this.emittedTodos.has(`${next + 1}|${line.trim()}`)) return;
      this.findings.push({
        file: this.options.displayName ?? this.options.fileName,
        line: next + 1,
        column: (/^\s*/.exec(target)![0].length) + 1,
        operation,
        v1: mapped ? { method: mapped.v1.method, path: mapped.v1.path } : null,
        v2: mapped?.v2 ? { method: mapped.v2.method, path: mapped.v2.path } : null,
        category: category as Category,
        reason: reason!,
        advice: advice ?? "",
        snippet: redact(target.trim()),
      });
    });
  }

  /** Base constants and helpers this module exports. */
  collectExports(): void {
    const add = (name: string, local: Node) => {
      const b = Node.isIdentifier(local) ? resolveIdentifier(local) : undefined;
      const base = this.baseOf(local);
      if (base !== undefined) return void this.exports.set(name, { kind: "base", value: base });
      if (b?.kind === "function") {
        const sig = this.helperSignature(b.decl);
        if (sig) this.exports.set(name, sig);
      } else if (b?.kind === "var" && b.init && isFunctionLike(unwrapExpression(b.init))) {
        const sig = this.helperSignature(unwrapExpression(b.init));
        if (sig) this.exports.set(name, sig);
      }
    };
    for (const st of this.sf.getStatements()) {
      if (Node.isVariableStatement(st) && st.hasExportKeyword()) {
        for (const d of st.getDeclarations()) for (const b of bindingNames(d.getNameNode())) if (Node.isIdentifier(b.node)) add(b.name, b.node);
      } else if (Node.isFunctionDeclaration(st) && st.hasExportKeyword() && st.getName()) {
        add(st.getName()!, st.getNameNode()!);
      } else if (Node.isExportDeclaration(st) && !st.getModuleSpecifier()) {
        for (const spec of st.getNamedExports()) add(spec.getAliasNode()?.getText() ?? spec.getName(), spec.getNameNode());
      } else if (Node.isExpressionStatement(st)) {
        const e = st.getExpression();
        if (!Node.isBinaryExpression(e) || e.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) continue;
        const left = e.getLeft().getText().replace(/\s/g, "");
        const right = unwrapExpression(e.getRight());
        if (left === "module.exports" && Node.isObjectLiteralExpression(right)) {
          for (const p of right.getProperties()) {
            if (Node.isShorthandPropertyAssignment(p)) add(p.getName(), p.getNameNode());
            else if (Node.isPropertyAssignment(p) && Node.isIdentifier(unwrapExpression(p.getInitializerOrThrow()))) add(p.getName(), unwrapExpression(p.getInitializerOrThrow()));
          }
        } else {
          const m = /^(?:module\.)?exports\.(\w+)$/.exec(left);
          if (m) {
            if (Node.isIdentifier(right)) add(m[1]!, right);
            else {
              const base = this.baseValueOf(right);
              if (base !== undefined) this.exports.set(m[1]!, { kind: "base", value: base });
            }
          }
        }
      }
    }
  }

  run(): void {
    // Helpers are recognised lazily: when a call's callee resolves to a function, or a call
    // inside a function joins a parameter to a v1 base.
    this.collectExports();
    const calls = this.sf.getDescendantsOfKind(SyntaxKind.CallExpression);
    let any = false;
    for (const call of calls) {
      const http = this.httpCall(call);
      if (!http) continue;
      const before = this.findings.length;
      this.processCall(http);
      if (this.findings.length > before) any = true;
    }
    if (any) this.axiosErrorReads();
    this.strays();
    this.todoFindings();
    this.findings.sort((a, b) => a.line - b.line || a.column - b.column);
  }
}

type BodySite = { kind: "value" | "promise" | "binding"; node: Node };

function skipParens(node: Node): Node {
  let n = node;
  for (;;) {
    const p = n.getParent();
    if (p && (Node.isParenthesizedExpression(p) || Node.isAsExpression(p) || Node.isNonNullExpression(p) || Node.isSatisfiesExpression(p))) n = p;
    else return n;
  }
}

function referencesOf(scope: Node, nameNode: Node): Node[] {
  const name = nameNode.getText();
  const refs: Node[] = [];
  for (const d of scope.getDescendantsOfKind(SyntaxKind.Identifier)) {
    if (d === nameNode || d.getText() !== name) continue;
    const p = d.getParent();
    if (p && Node.isPropertyAccessExpression(p) && p.getNameNode() === d) continue;
    if (p && (Node.isPropertyAssignment(p) && p.getNameNode() === d)) continue;
    const b = resolveIdentifier(d);
    if (b && (b.kind === "var" || b.kind === "param") && (b.decl === nameNode.getParent() || b.decl === nameNode.getParent()?.getParent()?.getParent())) refs.push(d);
    else if (b?.kind === "var" && b.decl.getFirstDescendant((x) => x === nameNode)) refs.push(d);
  }
  return refs;
}

function isErrorRead(ref: Node): boolean {
  const p = ref.getParent();
  return !!p && Node.isPropertyAccessExpression(p) && p.getExpression() === ref && ["message", "error", "detail", "title", "status"].includes(p.getName());
}

type Match = NonNullable<ReturnType<typeof matchV1>>;
const isMatch = (m: ReturnType<typeof matchV1>): m is Match => m !== null;

function uniqueMatches(p: string): Match[] {
  const seen = new Set<string>();
  const out: Match[] = [];
  for (const method of ["GET", "POST", "PATCH", "PUT", "DELETE"]) {
    const m = matchV1(method, p);
    if (m && !seen.has(m.operation.key)) {
      seen.add(m.operation.key);
      out.push(m);
    }
  }
  return out;
}

/** The v2 path (relative to the base the URL uses) with the user's segments for path parameters. */
function newPathFor(match: Match, url: LocatedUrl): string | null {
  const op = match.operation;
  if (!op.v2) return null;
  const actual = url.path.split("/").filter(Boolean);
  const template = op.v1.path.split("/").filter(Boolean);
  const raw: Record<string, string> = {};
  template.forEach((seg, i) => {
    const m = /^\{(\w+)\}$/.exec(seg);
    if (m) raw[m[1]!] = actual[i]!;
  });
  const byV2: Record<string, string> = {};
  for (const [v1Name, v2Name] of Object.entries(op.pathParams ?? {})) byV2[v2Name] = raw[v1Name]!;
  const v2 = op.v2.path.replace(/\{(\w+)\}/g, (_, n: string) => byV2[n] ?? `{${n}}`);
  if (v2.includes("{")) return null;
  // The version segment is written by rewriteUrl (inline base or `/v1` after an origin-only base).
  const rel = v2.replace(/^\/v2(?=\/|$)/, "");
  return rel + (url.path.endsWith("/") && !rel.endsWith("/") ? "/" : "");
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").replace(/;/g, ",").trim();
}

/** Applies non-overlapping edits (identical duplicates collapse; conflicting ones are dropped). */
export function applyEdits(text: string, edits: Edit[]): { output: string; conflicts: Edit[] } {
  const seen = new Set<string>();
  const list = edits
    .map((e, i) => ({ ...e, i }))
    .filter((e) => {
      const key = `${e.start}:${e.end}:${e.text}`;
      if (e.start !== e.end && seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.start - b.start || (a.start === a.end ? 0 : 1) - (b.start === b.end ? 0 : 1) || a.i - b.i);
  const conflicts: Edit[] = [];
  let out = "";
  let pos = 0;
  for (const e of list) {
    if (e.start < pos) {
      conflicts.push(e);
      continue;
    }
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return { output: out + text.slice(pos), conflicts };
}

/** Analyses (and plans the rewrite of) one file. */
export function analyzeSource(text: string, options: AnalyzeOptions): FileAnalysis {
  const { sf, error } = parse(text, options.fileName);
  try {
    if (error) {
      return { findings: [], edits: [], output: text, exports: new Map(), parseError: error, callSites: 0, rewritten: 0 };
    }
    const engine = new FileEngine(sf, options);
    engine.run();
    const { output, conflicts } = applyEdits(text, engine.edits);
    if (conflicts.length) {
      // Overlapping edits mean two plans disagree: leave the file alone and say so.
      const findings = engine.findings.map((f) => (f.category === "auto" ? { ...f, category: "review" as const, reason: `${f.reason}; overlapping edits, left unchanged`, advice: "rewrite this file by hand" } : f));
      return { findings, edits: [], output: text, exports: engine.exports, callSites: engine.callSites, rewritten: 0 };
    }
    return { findings: engine.findings, edits: engine.edits, output, exports: engine.exports, callSites: engine.callSites, rewritten: engine.rewritten };
  } finally {
    project().removeSourceFile(sf);
  }
}

export { HOLE_MARK };
