// Keys the project's own configuration module defines: Nest's `ConfigModule.forRoot({ load: [() =>
// ({ KEY: … })] })` and `registerAs("ns", () => ({ key: … }))`. A configuration service's
// `get("KEY", default)` reads the environment first, then what the project built there, and its
// default only when neither holds the key; so a key the project defines is read from its
// definition, and the default given at the read is one more option beside it.
import { Node, SyntaxKind, type Project } from "../../ts-morph.ts";
import { unwrapExpression } from "../urls.ts";
import { typedOuter } from "../nodes.ts";
import { isAbsent, optionsOf, union, type Value } from "./value.ts";

/** The evaluator's reads this needs. */
export interface KeyReader {
  evaluate(node: Node): Value;
  property(at: Node, v: Value, key: string): Value;
  returns(fn: Node, frame: undefined): Value;
}

/** A factory whose returned object defines keys, under `ns.` when it was registered with a namespace. */
interface Definition {
  ns: string | undefined;
  factory: Node;
}

const READS = new Set(["get", "getOrThrow", "getOrDefault", "getString"]);
const LOADERS = /^for(Root|Feature)(Async)?$/;
const found = new WeakMap<Project, Definition[]>();

/** `recv.get("KEY")` or `recv.get("KEY", default)`: the key, and the default's node when one is given. */
export function configKeyRead(call: Node): { key: string; fallback: Node | undefined } | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = unwrapExpression(call.getExpression());
  if (!Node.isPropertyAccessExpression(callee) || !READS.has(callee.getName())) return undefined;
  const [key, fallback, extra] = call.getArguments();
  if (!key || extra) return undefined;
  const k = unwrapExpression(key);
  if (!Node.isStringLiteral(k) && !Node.isNoSubstitutionTemplateLiteral(k)) return undefined;
  // An options object in second place (`get(key, { infer: true })`) is no default.
  const def = fallback && !Node.isObjectLiteralExpression(unwrapExpression(fallback)) ? fallback : undefined;
  return { key: k.getLiteralValue(), fallback: def };
}

/** What the project's configuration factories give `key` (`a.b` read as a path); undefined when none defines it. */
export function definedKey(ev: KeyReader, at: Node, key: string): Value | undefined {
  const options: Value[] = [];
  for (const d of definitions(at.getProject())) {
    if (d.ns && !key.startsWith(`${d.ns}.`)) continue;
    const path = (d.ns ? key.slice(d.ns.length + 1) : key).split(".");
    let v: Value = ev.returns(d.factory, undefined);
    for (const part of path) v = ev.property(at, v, part);
    // A factory without the key does not define it; one the codemod cannot read might.
    const present = optionsOf(v).filter((o) => !isAbsent(o));
    if (present.length) options.push(union(at, present));
  }
  return options.length ? union(at, options) : undefined;
}

function definitions(project: Project): Definition[] {
  const cached = found.get(project);
  if (cached) return cached;
  const out: Definition[] = [];
  for (const sf of project.getSourceFiles()) {
    const text = sf.getFullText();
    if (!/\bregisterAs\b|\bload\s*:/.test(text)) continue;
    for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = unwrapExpression(call.getExpression());
      const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
      const args = call.getArguments().map((x) => unwrapExpression(x));
      if (name === "registerAs") {
        const [ns, factory] = args;
        if (ns && (Node.isStringLiteral(ns) || Node.isNoSubstitutionTemplateLiteral(ns)) && factory && isFactory(factory)) out.push({ ns: ns.getLiteralValue(), factory });
        continue;
      }
      if (!LOADERS.test(name)) continue;
      for (const arg of args) {
        const load = Node.isObjectLiteralExpression(arg) ? arg.getProperty("load") : undefined;
        const list = load && Node.isPropertyAssignment(load) ? unwrapExpression(load.getInitializer()!) : undefined;
        if (!list || !Node.isArrayLiteralExpression(list)) continue;
        // An inline factory; a named one (`load: [runpodConfig]`) is a function or a `registerAs` found above.
        for (const el of list.getElements().map((e) => unwrapExpression(e))) {
          const fn = isFactory(el) ? el : Node.isIdentifier(el) ? declaredFactory(el) : undefined;
          if (fn) out.push({ ns: undefined, factory: fn });
        }
      }
    }
  }
  found.set(project, out);
  return out;
}

function isFactory(n: Node): boolean {
  return Node.isArrowFunction(n) || Node.isFunctionExpression(n) || Node.isFunctionDeclaration(n);
}

/** `load: [runpodConfig]` where `runpodConfig` is a function declared in the project (not a `registerAs`). */
function declaredFactory(id: Node): Node | undefined {
  for (const d of (id as any).getSymbol?.()?.getAliasedSymbol?.()?.getDeclarations?.() ?? (id as any).getSymbol?.()?.getDeclarations?.() ?? []) {
    if (isFactory(d)) return d;
    if (Node.isVariableDeclaration(d)) {
      const init = d.getInitializer() && unwrapExpression(d.getInitializer()!);
      if (init && isFactory(init)) return init;
    }
  }
  return undefined;
}

/** The key prefix a configuration factory of the project defines its keys under (`""`, or `ns.` of `registerAs`); undefined for any other function. */
export function factoryNamespace(fn: Node): string | undefined {
  const d = definitions(fn.getProject()).find((x) => x.factory === fn);
  return d ? (d.ns ? `${d.ns}.` : "") : undefined;
}

/** Every configuration read of `key` in the project (`config.get("KEY")`, with a default or none). */
export function keyReads(at: Node, key: string): Node[] {
  const out: Node[] = [];
  for (const sf of at.getProject().getSourceFiles()) {
    if (!sf.getFullText().includes(key.split(".").pop()!)) continue;
    for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) if (configKeyRead(call)?.key === key) out.push(call);
  }
  return out;
}

/**
 * The environment variable a configuration service reads before this definition: `KEY` of a
 * top-level `KEY: process.env.KEY ?? "…"` in a factory loaded without a namespace (Nest's `get`
 * reads `process.env.KEY` first). Renaming the variable the factory reads would not move it.
 */
export function readFirstFromEnv(value: Node): string | undefined {
  let n = value;
  while (n.getParent() && Node.isParenthesizedExpression(n.getParent()!)) n = n.getParent()!;
  const prop = n.getParent();
  if (!prop || !Node.isPropertyAssignment(prop) || prop.getInitializer() !== n) return undefined;
  const key = prop.getName();
  if (!/^[A-Z][A-Z0-9_]*$/.test(key)) return undefined;
  const holder = typedOuter(prop.getParent()!).getParent();
  const fn = holder && Node.isReturnStatement(holder) ? holder.getFirstAncestor((x) => isFactory(x)) : holder;
  return fn && factoryNamespace(fn) === "" ? key : undefined;
}
