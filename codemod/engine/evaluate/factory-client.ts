// A client handed in as a parameter, in the package that makes it. An SDK's users make the
// instance with the package's own factory (`createClient(opts)` returning `ky.create({ prefixUrl })`)
// and hand it to its exported functions (`listPods(api: KyInstance)`), from code the run never
// sees. A parameter typed as the instance type (a type of the package the client is made with, or
// the factory's return type) whose callers are not all seen holds that client, so its calls move
// with the factory's base. Not read where the package makes a second client with that package (a
// second factory, a singleton for another API): which one a caller hands in is not known.
import { Node, SyntaxKind, type SourceFile } from "../../ts-morph.ts";
import { isFunctionLike, resolveIdentifier } from "../scope.ts";
import { unwrapExpression } from "../urls.ts";
import { typedOuter } from "../nodes.ts";
import { manifestsAbove } from "../package-root.ts";
import { BASE_KEYS } from "./bases.ts";
import type { Value } from "./value.ts";
import type { ModuleResolver } from "../symbols.ts";

/** What the evaluator answers for a function's returns and a name (passed in: no import cycle). */
export interface ClientReader {
  evaluate(node: Node): Value;
  returns(fn: Node, frame: undefined): Value;
}

/** The package's one client a parameter typed as its instance type holds; undefined when not read. */
export function factoryClient(reader: ClientReader, param: Node, resolve: ModuleResolver | undefined): Value | undefined {
  if (!Node.isParameterDeclaration(param)) return undefined;
  const type = param.getTypeNode();
  const target = type && instanceType(reader, resolve, type, 0);
  if (!target) return undefined;
  if ("factory" in target) return madeOnly(reader.returns(target.factory, undefined));
  const clients = clientsMadeWith(param.getSourceFile(), target.pkg);
  if (clients.length !== 1) return undefined;
  const [client] = clients;
  // A factory that declares what it returns declares this very type.
  const declared = client!.factory && (client!.factory as any).getReturnTypeNode?.();
  if (declared && !sameType(declared, target)) return undefined;
  return { kind: "made", call: client!.call, frame: undefined };
}

type Target = { pkg: string; name: string } | { factory: Node };

/** `KyInstance` (imported from a package), `ReturnType<typeof createClient>`, or a project alias of either. */
function instanceType(reader: ClientReader, resolve: ModuleResolver | undefined, type: Node, depth: number): Target | undefined {
  if (depth > 4 || !Node.isTypeReference(type)) return undefined;
  const name = type.getTypeName();
  if (!Node.isIdentifier(name)) return undefined;
  if (name.getText() === "ReturnType") {
    const query = type.getTypeArguments()[0];
    if (!query || !Node.isTypeQuery(query)) return undefined;
    const fn = reader.evaluate(query.getExprName());
    return fn.kind === "function" && isFunctionLike(fn.node) ? { factory: fn.node } : undefined;
  }
  const b = resolveIdentifier(name);
  if (b?.kind === "import" && !/^[./]/.test(b.module)) return OPTIONS_TYPE.test(b.name) ? undefined : { pkg: b.module, name: b.name };
  // A project alias (`type Api = KyInstance`, here or in the module it is imported from), read without the type checker.
  const aliased = projectAlias(name, b, resolve)?.getTypeNode();
  return aliased ? instanceType(reader, resolve, aliased, depth + 1) : undefined;
}

function projectAlias(name: Node, b: ReturnType<typeof resolveIdentifier>, resolve: ModuleResolver | undefined) {
  const sf = name.getSourceFile();
  if (!b) return sf.getTypeAlias(name.getText());
  if (b.kind !== "import" || b.name === "*" || b.name === "default") return undefined;
  const target = resolve?.(sf.getFilePath(), b.module);
  const alias = target?.getTypeAlias(b.name);
  return alias?.isExported() ? alias : undefined;
}

/** A package's types that describe a request, not the client (`Options`, `HTTPError`, `KyResponse`). */
const OPTIONS_TYPE = /(Options|Config|Init|Hooks?|Input|Response|Error|Request|Result|Headers)$/;

function sameType(declared: Node, target: { pkg: string; name: string }): boolean {
  if (!Node.isTypeReference(declared)) return false;
  const name = declared.getTypeName();
  const b = Node.isIdentifier(name) ? resolveIdentifier(name) : undefined;
  return b?.kind === "import" && b.module === target.pkg && b.name === target.name;
}

/** A made value, or a choice between made values: a factory's client. */
function madeOnly(v: Value): Value | undefined {
  const options = v.kind === "union" ? v.options : [v];
  return options.length && options.every((o) => o.kind === "made") ? v : undefined;
}

interface Client {
  /** The call that makes it (`ky.create({ prefixUrl })`). */
  call: Node;
  /** The function returning it, when it is a factory's return. */
  factory?: Node;
}

/**
 * Every client the package (the files under the nearest package.json) makes with `pkg`: a call on
 * the package's import given options with a base-like key (`ky.create({ prefixUrl })`).
 */
function clientsMadeWith(sf: SourceFile, pkg: string): Client[] {
  const dir = packageDir(sf);
  const byKey = made.get(sf.getProject()) ?? made.set(sf.getProject(), new Map()).get(sf.getProject())!;
  const key = `${dir}\0${pkg}`;
  const known = byKey.get(key);
  if (known) return known;
  const out: Client[] = [];
  byKey.set(key, out);
  for (const file of sf.getProject().getSourceFiles()) {
    if (file.isDeclarationFile() || file.isInNodeModules() || packageDir(file) !== dir) continue;
    for (const obj of file.getDescendantsOfKind(SyntaxKind.ObjectLiteralExpression)) {
      if (!BASE_KEYS.some((k) => obj.getProperty(k))) continue;
      const call = obj.getParent();
      if (!call || !(Node.isCallExpression(call) || Node.isNewExpression(call)) || !call.getArguments().includes(obj as never)) continue;
      let root: Node = unwrapExpression(call.getExpression());
      while (Node.isPropertyAccessExpression(root)) root = unwrapExpression(root.getExpression());
      const b = Node.isIdentifier(root) ? resolveIdentifier(root) : undefined;
      if (b?.kind !== "import" || b.module !== pkg) continue;
      out.push({ call, factory: returnedBy(call) });
    }
  }
  return out;
}

/** The function whose return the call is (`return ky.create(…)`, `() => ky.create(…)`). */
function returnedBy(call: Node): Node | undefined {
  const n = typedOuter(call);
  const p = n.getParent();
  if (p && Node.isReturnStatement(p)) {
    let fn: Node | undefined = p.getParent();
    while (fn && !isFunctionLike(fn)) fn = fn.getParent();
    return fn;
  }
  return p && Node.isArrowFunction(p) && p.getBody() === n ? p : undefined;
}

const made = new WeakMap<object, Map<string, Client[]>>();
const dirs = new WeakMap<SourceFile, string>();

/** The folder of the nearest package.json above a file (its path's root when there is none). */
function packageDir(sf: SourceFile): string {
  const known = dirs.get(sf);
  if (known !== undefined) return known;
  const dir = manifestsAbove(sf.getFilePath()).next().value?.dir ?? "/";
  dirs.set(sf, dir);
  return dir;
}
