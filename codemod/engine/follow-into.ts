// Where a followed base goes next when it leaves the expression it sits in (follow-uses.ts): into a
// project class or factory that takes it as an option, into the elements of a destructuring, and
// to the calls of a function that returns it.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import type { Analysis } from "./state.ts";
import { functionName, references } from "./references.ts";
import { commonJsExports } from "./module-exports.ts";
import { factoryNamespace, keyReads } from "./evaluate/config-keys.ts";
import type { CallResults } from "./call-results.ts";
import { referencesOf } from "./nodes.ts";
import { classNamed, functionNamed, parentClass } from "./record-callees.ts";
import { clientKey, membersTaken, type ProjectClients } from "./client-uses.ts";

/** What these steps need of the follower: its analysis, the literal followed, and its own next step. */
export interface FollowSteps {
  readonly a: Analysis;
  readonly literal: Node | undefined;
  readonly results: CallResults;
  readonly projectClients: ProjectClients;
  follow(value: Node, out: Node[], seen: Set<string>, depth: number, path?: string[]): void;
}

/**
 * `podsClient({ baseUrl })`, `new Client({ baseUrl })` of the project: the parameter that takes
 * the options object is followed inside with the option's path (`opts.baseUrl`, `this.opts.baseUrl`,
 * `this.config = config`). The made object and the class or factory are remembered (its methods'
 * calls are not uses). False when the callee is not the project's.
 */
export function intoCallee(f: FollowSteps, holder: Node, obj: Node, path: string[], out: Node[], seen: Set<string>, depth: number): boolean {
  const callee = (holder as any).getExpression() as Node;
  // (`super({ baseURL })` in a subclass's constructor: the parent class of the project takes it.)
  const fn = callee.getKind() === SyntaxKind.SuperKeyword ? undefined : functionNamed(f.a, callee);
  const cls = fn ? undefined : callee.getKind() === SyntaxKind.SuperKeyword ? parentClass(f.a, holder) : Node.isNewExpression(holder) ? classNamed(f.a, callee) : undefined;
  const body = fn ?? cls?.getConstructors()[0];
  if (!body) return false;
  const index = (holder as any).getArguments().indexOf(obj);
  const param = (body as any).getParameters?.()[index] as Node | undefined;
  if (!param || !Node.isParameterDeclaration(param) || param.getDotDotDotToken()) return false;
  const name = param.getNameNode();
  // `constructor({ baseURL, timeout }: Options)`: the element that takes the option.
  if (Node.isObjectBindingPattern(name) && path.length) return destructured(f, name, out, seen, depth + 1, path), f.projectClients.add(holder, cls ?? fn!), true;
  if (!Node.isIdentifier(name)) return false;
  const local = referencesOf(body, name);
  for (const r of local) f.follow(r, out, seen, depth + 1, path);
  // A parameter property (`constructor(private opts: Options)`): its uses are `this.opts`.
  if (param.getScope() || param.isReadonly()) for (const r of references(name)) if (!local.includes(r)) f.follow(r, out, seen, depth + 1, path);
  f.projectClients.add(holder, cls ?? fn!);
  return true;
}

/** `const { base, key } = getConfig()`: the element that takes the path's key. */
export function destructured(f: FollowSteps, name: Node, out: Node[], seen: Set<string>, depth: number, path: string[]): void {
  if (!path.length || !Node.isObjectBindingPattern(name)) return void out.push(name);
  const step = path[path.length - 1]!;
  // A client's members taken out (`const { get } = client`) are uses not followed; its base option read back is the value.
  const client = clientKey(step);
  const want = client ?? step;
  if (client !== undefined) out.push(...membersTaken(name, client));
  for (const el of name.getElements()) {
    if (el.getDotDotDotToken()) return void out.push(el);
    const key = el.getPropertyNameNode()?.getText() ?? el.getName();
    if (key !== want) continue;
    const local = el.getNameNode();
    if (Node.isIdentifier(local)) referencesOf(enclosingFunction(el), local).forEach((r) => f.follow(r, out, seen, depth + 1, path.slice(0, -1)));
    else destructured(f, local, out, seen, depth + 1, path.slice(0, -1));
  }
}

/** The value a function returns goes to each of its call expressions. */
export function callers(f: FollowSteps, fn: Node, out: Node[], seen: Set<string>, depth: number, path: string[] = []): void {
  if (!isFunctionLike(fn)) return void out.push(fn);
  const holder = fn.getParent();
  if (holder && Node.isArrowFunction(holder) && holder.getBody() === fn) return callers(f, holder, out, seen, depth + 1, path);
  // A configuration factory of the project (`load: [() => ({ KEY })]`, `registerAs`): its keys' reads (`config.get("KEY")`).
  const ns = factoryNamespace(fn);
  if (ns !== undefined && path.length) {
    for (const read of keyReads(fn, ns + [...path].reverse().join("."))) f.follow(read, out, seen, depth + 1);
    return;
  }
  const name = functionName(fn);
  if (!name) return void out.push(fn);
  for (const r of references(name)) {
    // A module's default import whose default export is a call of this function (`export default
    // defineConfig({ … })`): the compiler lists it with the function's references; that value is
    // followed from the export (its default imports' uses).
    if (r.getText() !== name.getText() && r.getSymbol()?.getDeclarations().some((d) => Node.isImportClause(d))) continue;
    const call = r.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === r) {
      if (!path.length && f.results.cannotHold(call, f.literal)) continue;
      f.follow(call, out, seen, depth + 1, path);
    } else if (!commonJsExports(r.getSourceFile()).has(r)) out.push(r);
    // (Exported the CommonJS way: the importers' calls are among the references.)
  }
}
