// A record (or list) handed to a function of the project (`formatPod(pod)`, `pods.map(toRow)`,
// `this.summarise(pod)`): the parameter that takes it, so its reads are followed inside. A read
// renamed there is shared by every caller, so each entry is kept: do no harm lets the rename land
// only when every call of the function hands it records of calls that migrate (shared-readers.ts).
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { ClassDeclaration, ConstructorDeclaration } from "ts-morph";
import type { Analysis, Plan } from "./state.ts";
import { skipParens, typedOuter } from "./nodes.ts";
import { exportedOutward } from "./outside-callers.ts";
import { commonJsExports } from "./module-exports.ts";

export interface Callee {
  fn: Node;
  /** The parameter declaration that takes the value. */
  param: Node;
}

const FUNCTION = (n: Node | undefined): n is Node =>
  !!n && (Node.isFunctionDeclaration(n) || Node.isMethodDeclaration(n) || Node.isArrowFunction(n) || Node.isFunctionExpression(n));

/** The declarations an expression names, through imports and aliases (none when the checker cannot tell). */
export function declarationsNamed(expr: Node): Node[] {
  try {
    let symbol = expr.getSymbol();
    if (symbol?.isAlias()) symbol = symbol.getAliasedSymbol() ?? symbol;
    return symbol?.getDeclarations() ?? [];
  } catch {
    return [];
  }
}

/** The function of the run's own source an expression names (through imports and aliases), if it has a body there. */
export function functionNamed(a: Analysis, expr: Node): Node | undefined {
  const found = functionBodiesNamed(expr).filter((fn) => a.files.has(fn.getSourceFile().getFilePath()));
  // Several bodies (a method overridden, a name declared twice): which one runs is not known here.
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The functions with a body an expression names, outside declaration files: a function, a method, a
 * function-valued variable or property, a `module.exports.x = function …` assignment.
 */
export function functionBodiesNamed(expr: Node): Node[] {
  const found: Node[] = [];
  for (const d of declarationsNamed(expr)) {
    let fn: Node | undefined = d;
    if (Node.isVariableDeclaration(d) || Node.isPropertyAssignment(d) || Node.isPropertyDeclaration(d)) {
      const init = d.getInitializer();
      fn = init ? unwrap(init) : undefined;
    }
    // `module.exports.request = async function (…) {…}`: the compiler declares the export by its assignment.
    const assign = Node.isPropertyAccessExpression(d) ? d.getParent() : undefined;
    if (assign && Node.isBinaryExpression(assign) && assign.getLeft() === d && assign.getOperatorToken().getKind() === SyntaxKind.EqualsToken) fn = unwrap(assign.getRight());
    if (!FUNCTION(fn) || !(fn as any).getBody?.() || fn.getSourceFile().isDeclarationFile()) continue;
    found.push(fn);
  }
  return found;
}

/** The class declared in the run's own source that a `new` expression names (through imports), if one. */
export function classNamed(a: Analysis, expr: Node): ClassDeclaration | undefined {
  const d = declarationsNamed(expr).find((x) => Node.isClassDeclaration(x));
  return d && Node.isClassDeclaration(d) && !d.getSourceFile().isDeclarationFile() && a.files.has(d.getSourceFile().getFilePath()) ? d : undefined;
}

/**
 * The constructor a `new` expression of the run's class runs: its own, or (a class that declares none,
 * `class NotFoundError extends APIError {}`) the first one up its chain of the run's classes, which
 * JavaScript calls with the same arguments.
 */
export function constructorOf(a: Analysis, expr: Node): ConstructorDeclaration | undefined {
  const seen = new Set<Node>();
  for (let cls: ClassDeclaration | undefined = classNamed(a, expr); cls && !seen.has(cls); cls = cls.getBaseClass()) {
    seen.add(cls);
    if (cls.getSourceFile().isDeclarationFile() || !a.files.has(cls.getSourceFile().getFilePath())) return undefined;
    const ctor = cls.getConstructors().find((c) => c.getBody());
    if (ctor) return ctor;
    // A class that declares a constructor without a body (an overload only) or none of its own and no base of the run: none is read.
    if (cls.getConstructors().length) return undefined;
  }
  return undefined;
}

function unwrap(n: Node): Node {
  let x = n;
  while (Node.isParenthesizedExpression(x) || Node.isAsExpression(x) || Node.isSatisfiesExpression(x)) x = x.getExpression();
  return x;
}

function parameterAt(fn: Node, index: number): Node | undefined {
  const params = (fn as any).getParameters?.() as Node[] | undefined;
  const param = params?.[index];
  if (!param || !Node.isParameterDeclaration(param) || param.getDotDotDotToken()) return undefined;
  return param;
}

/** `fn(…, value, …)`: the callee's parameter at the value's position. */
export function argumentCallee(a: Analysis, value: Node): Callee | undefined {
  const outer = skipParens(value);
  const call = outer.getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const index = call.getArguments().indexOf(outer as any);
  if (index < 0) return undefined;
  const fn = functionNamed(a, call.getExpression());
  const param = fn && parameterAt(fn, index);
  return fn && param ? { fn, param } : undefined;
}

/** `list.map(toRow)`: the named callback's parameter that takes each element. */
export function callbackCallee(a: Analysis, callback: Node, index: number): Callee | undefined {
  if (!Node.isIdentifier(callback) && !Node.isPropertyAccessExpression(callback)) return undefined;
  const fn = functionNamed(a, callback);
  const param = fn && parameterAt(fn, index);
  return fn && param ? { fn, param } : undefined;
}

/** The site hands its record to this parameter at `entry` (the call, or the callback reference). */
export function noteEntry(plan: Plan, callee: Callee, entry: Node): void {
  const entries = plan.a.readerEntries.get(callee.param) ?? new Set<Node>();
  entries.add(entry);
  plan.a.readerEntries.set(callee.param, entries);
  (plan.site.typeUses ??= new Set()).add(callee.param);
}

/** The name a function is called by: its own, or the variable, property or class field holding it. */
function calledName(fn: Node): Node | undefined {
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return fn.getNameNode();
  const holder = typedOuter(fn).getParent();
  if (holder && (Node.isVariableDeclaration(holder) || Node.isPropertyAssignment(holder) || Node.isPropertyDeclaration(holder))) {
    const name = holder.getNameNode();
    return Node.isIdentifier(name) ? name : undefined;
  }
  return undefined;
}

/**
 * A use of the parameter's function that hands it something no planned site accounts for (another
 * caller, the function passed on), or the function itself when its uses cannot be listed.
 */
export function strayCaller(a: Analysis, param: Node, references: (name: Node) => Node[]): Node | undefined {
  const fn = param.getParent()!;
  const name = calledName(fn);
  if (!name) return fn;
  const entries = a.readerEntries.get(param) ?? new Set<Node>();
  for (const r of references(name)) {
    if (entries.has(r)) continue;
    const call = r.getParent();
    if (call && Node.isCallExpression(call) && call.getExpression() === r && entries.has(call)) continue;
    // `module.exports = { format }`, `export default format`: naming it is not calling it.
    if (Node.isShorthandPropertyAssignment(call) || Node.isExportAssignment(call)) continue;
    return r;
  }
  return undefined;
}

/**
 * Why the parameter's function may be handed records the run never sees: the module exports it
 * (`export function isNexPod(pod)`, a public method of an exported class, `module.exports = { format }`,
 * `export default format`) and no other module of the run uses it, so the export is there for code
 * outside the run, whose records are v1 (the rule of outside-callers.ts for request helpers). An
 * export the run's own modules import is the project's function: its callers are the ones listed.
 */
export function outOfSightCaller(param: Node, references: (name: Node) => Node[]): string | undefined {
  const fn = param.getParent()!;
  const name = calledName(fn);
  if (!name || !exportedHere(fn, name)) return undefined;
  const home = fn.getSourceFile();
  if (references(name).some((r) => r.getSourceFile() !== home)) return undefined;
  return "code outside the run may hand it records in v1 shape";
}

/** Whether the module exports the function (ESM, a default export, or CommonJS). */
function exportedHere(fn: Node, name: Node): boolean {
  if (exportedOutward(fn)) return true;
  if (commonJsExports(fn.getSourceFile()).has(name)) return true;
  const sf = fn.getSourceFile();
  return sf.getExportAssignments().some((e) => unwrap(e.getExpression()).getText() === name.getText()) ||
    sf.getExportDeclarations().some((d) => !d.getModuleSpecifier() && d.getNamedExports().some((s) => s.getName() === name.getText()));
}

/** The project's class a `super(…)` call constructs (the class the caller's class extends). */
export function parentClass(a: Analysis, superCall: Node): ClassDeclaration | undefined {
  const sub = superCall.getFirstAncestor((x) => Node.isClassDeclaration(x) || Node.isClassExpression(x));
  const base = sub && (sub as any).getExtends?.()?.getExpression() as Node | undefined;
  return base ? classNamed(a, base) : undefined;
}
