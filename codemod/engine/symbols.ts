// Cross-file and member resolution on top of the per-scope resolver (scope.ts): an imported name
// to its declaration in another parsed file (re-exports, index files, CommonJS exports), and a
// class member (`this.baseUrl`, `this.api`, `client.call`) to the values it is given.
import { derivedClasses } from "./find-references.ts";
import { classMayDeclare } from "./class-member-names.ts";
import { Node, SyntaxKind, type SourceFile } from "../ts-morph.ts";
import { bindingNames, isFunctionLike, resolveIdentifier, type Binding } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { references } from "./references.ts";
import { commonJsExports, commonJsValue, exportedDeclaration, type ModuleResolver } from "./module-exports.ts";

export type { ModuleResolver };
export { exportedDeclaration };

/** A declaration node as a binding the engine understands. */
export function bindingOfDeclaration(decl: Node): Binding | undefined {
  if (Node.isVariableDeclaration(decl)) {
    const names = bindingNames(decl.getNameNode());
    const isConst = decl.getVariableStatement()?.getDeclarationKind() === "const";
    return { kind: "var", decl, init: decl.getInitializer(), path: names.length === 1 ? names[0]!.path : [], isConst };
  }
  if (Node.isFunctionDeclaration(decl) || Node.isClassDeclaration(decl)) return { kind: "function", decl };
  if (Node.isPropertyAssignment(decl)) return { kind: "var", decl, init: decl.getInitializer(), path: [], isConst: true };
  if (Node.isBinaryExpression(decl)) return { kind: "var", decl, init: decl.getRight(), path: [], isConst: true };
  // `exports.request = request`: the compiler declares a CommonJS export by the assignment's left side.
  const assign = Node.isPropertyAccessExpression(decl) ? decl.getParent() : undefined;
  if (assign && Node.isBinaryExpression(assign) && assign.getLeft() === decl && assign.getOperatorToken().getKind() === SyntaxKind.EqualsToken) return bindingOfDeclaration(assign);
  if (Node.isShorthandPropertyAssignment(decl)) return resolveIdentifier(decl.getNameNode());
  if (Node.isExportAssignment(decl)) return { kind: "var", decl, init: decl.getExpression(), path: [], isConst: true };
  // `export default defineConfig({ … })`: the compiler names the expression itself as the default export.
  const exported = decl.getParent();
  if (exported && Node.isExportAssignment(exported) && exported.getExpression() === decl) return bindingOfDeclaration(exported);
  return undefined;
}

/**
 * Resolves an identifier to its binding, following an import of a parsed module to the
 * declaration there (so a helper or base constant of another file is seen as if it were local).
 */
export function bindAcross(id: Node, resolve: ModuleResolver | undefined, depth = 0): Binding | undefined {
  const b = resolveIdentifier(id);
  if (!b || b.kind !== "import" || !resolve || depth > 6) return b;
  const target = resolve(id.getSourceFile().getFilePath(), b.module);
  if (!target) return b;
  // A whole module bound to a name (`const request = require("./http")`) is its `module.exports`
  // when that is one value (a function, a class, an instance), not an object of exports.
  // A default import of a CommonJS module is its `module.exports` too.
  if (b.name === "*" || (b.name === "default" && commonJsExports(target).size > 0)) {
    const whole = commonJsValue(target);
    return whole ? exportBinding(whole, resolve, depth) ?? b : { ...b, name: "*" };
  }
  return importedBinding(target, b.name, resolve, depth) ?? b;
}

/** The binding of an export of a parsed module. */
export function importedBinding(target: SourceFile, name: string, resolve: ModuleResolver | undefined, depth = 0): Binding | undefined {
  const decl = exportedDeclaration(target, name);
  return decl ? exportBinding(decl, resolve, depth) : undefined;
}

function exportBinding(decl: Node, resolve: ModuleResolver | undefined, depth: number): Binding | undefined {
  const bound = bindingOfDeclaration(decl);
  // `export default api` / `module.exports = { request }` where the value is a local name.
  if (bound?.kind === "var" && bound.init && Node.isIdentifier(unwrapExpression(bound.init)) && !Node.isVariableDeclaration(decl)) {
    return bindAcross(unwrapExpression(bound.init), resolve, depth + 1) ?? bound;
  }
  return bound;
}

/** The class a `this` refers to (arrow functions keep the outer `this`). */
export function classOfThis(node: Node): Node | undefined {
  let n: Node | undefined = node.getParent();
  while (n) {
    if (Node.isClassDeclaration(n) || Node.isClassExpression(n)) return n;
    if (Node.isFunctionDeclaration(n) || Node.isFunctionExpression(n)) return undefined;
    // A method of an object literal: `this` is that object (objectOfThis), not a class around it.
    if ((Node.isMethodDeclaration(n) || Node.isGetAccessorDeclaration(n) || Node.isSetAccessorDeclaration(n)) && Node.isObjectLiteralExpression(n.getParent())) return undefined;
    n = n.getParent();
  }
  return undefined;
}

/** The object literal a `this` inside one of its methods refers to (`{ rest() {…}, get(p) { return this.rest("GET", p) } }`). */
export function objectOfThis(node: Node): Node | undefined {
  // The nearest function that is not an arrow (arrows keep the outer `this`); a class ends the search.
  let n: Node | undefined = node.getParent();
  while (n && (Node.isArrowFunction(n) || !isFunctionLike(n)) && !Node.isClassDeclaration(n) && !Node.isClassExpression(n)) n = n.getParent();
  if (!n || !(Node.isMethodDeclaration(n) || Node.isFunctionExpression(n) || Node.isGetAccessorDeclaration(n) || Node.isSetAccessorDeclaration(n))) return undefined;
  const up = Node.isFunctionExpression(n) ? n.getParent() : n;
  if (!up || (Node.isFunctionExpression(n) && !Node.isPropertyAssignment(up))) return undefined;
  const obj = up.getParent();
  return obj && Node.isObjectLiteralExpression(obj) ? obj : undefined;
}

/** The class that declares the member a property access reads (`this.x`, or `obj.x` through the checker). */
export function classOfMember(access: Node): Node | undefined {
  if (!Node.isPropertyAccessExpression(access)) return undefined;
  const obj = unwrapExpression(access.getExpression());
  if (obj.getKind() === SyntaxKind.ThisKeyword) return classOfThis(access);
  if (!classMayDeclare(access, access.getName())) return undefined;
  try {
    for (const d of access.getNameNode().getSymbol()?.getDeclarations() ?? []) {
      const cls = d.getFirstAncestor((a) => Node.isClassDeclaration(a) || Node.isClassExpression(a));
      if (cls) return cls;
    }
  } catch {
    /* the checker could not type it: unknown */
  }
  return undefined;
}

/** Every value a class member is given: field initializer, parameter-property default, `this.x = …`. */
export function memberValues(cls: Node, name: string): Node[] {
  const out: Node[] = [];
  for (const m of membersNamed(cls, name)) {
    if (Node.isPropertyDeclaration(m) && m.getName() === name && m.getInitializer()) out.push(m.getInitializer()!);
    if (Node.isConstructorDeclaration(m)) {
      for (const p of m.getParameters()) if (p.isParameterProperty() && p.getName() === name && p.getInitializer()) out.push(p.getInitializer()!);
    }
  }
  out.push(...thisAssignments(cls, name));
  return out;
}

/**
 * The members of a class that can declare `name`, in source order: those named so, and each
 * constructor with a parameter property of that name. Indexed once a class, like the assignments below.
 */
export function membersNamed(cls: Node, name: string): readonly Node[] {
  let index = membersByClass.get(cls);
  if (!index) {
    index = new Map();
    const add = (key: string, m: Node) => (index!.get(key) ?? index!.set(key, []).get(key)!).push(m);
    for (const m of (cls as any).getMembers?.() ?? ([] as Node[])) {
      if (Node.isConstructorDeclaration(m)) {
        for (const key of new Set(m.getParameters().filter((p) => p.isParameterProperty()).map((p) => p.getName()))) add(key, m);
        continue;
      }
      const key = (m as any).getName?.() as string | undefined;
      if (key !== undefined) add(key, m);
    }
    membersByClass.set(cls, index);
  }
  return index.get(name) ?? [];
}
const membersByClass = new WeakMap<Node, Map<string, Node[]>>();

/**
 * What `this.name = …` assigns anywhere in the class (its own methods, not a nested class's), in
 * source order. Indexed once a class: a lookup a member read used to walk the whole class body,
 * which on a large class read member by member cost minutes.
 */
export function thisAssignments(cls: Node, name: string): Node[] {
  let index = assignedByClass.get(cls);
  if (!index) {
    index = new Map();
    for (const bin of cls.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
      if (bin.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) continue;
      const left = unwrapExpression(bin.getLeft());
      if (!Node.isPropertyAccessExpression(left) || left.getExpression().getKind() !== SyntaxKind.ThisKeyword || classOfThis(left) !== cls) continue;
      const key = left.getName();
      (index.get(key) ?? index.set(key, []).get(key)!).push(bin.getRight());
    }
    assignedByClass.set(cls, index);
  }
  return index.get(name) ?? [];
}
const assignedByClass = new WeakMap<Node, Map<string, Node[]>>();

/** The method declaration a member call names (`this.call(…)`, `client.listPods(…)`). */
export function memberMethod(access: Node): Node | undefined {
  if (!Node.isPropertyAccessExpression(access)) return undefined;
  const name = access.getName();
  // `this.request(…)` in a subclass: the method the class inherits, nearest first.
  for (let cls = classOfMember(access), depth = 0; cls && depth < 5; cls = baseClassOf(cls), depth++) {
    for (const m of membersNamed(cls, name)) {
      if (Node.isMethodDeclaration(m) && m.getName() === name) return m.isAbstract() ? undefined : m;
      if (Node.isPropertyDeclaration(m) && m.getName() === name) {
        const init = m.getInitializer() && unwrapExpression(m.getInitializer()!);
        return init && (Node.isArrowFunction(init) || Node.isFunctionExpression(init)) ? init : undefined;
      }
      // `constructor(private readonly request: RequestFn)`: the method every `new` of the class hands in.
      if (Node.isConstructorDeclaration(m)) {
        const index = m.getParameters().findIndex((p) => p.isParameterProperty() && p.getName() === name);
        if (index >= 0) return injectedMethod(cls, index);
      }
    }
  }
  return undefined;
}

/**
 * The method given to a class's constructor at `index` by every `new` of it in the project
 * (`new Pods(this.request.bind(this))`, `new Pods((m, p, b) => this.request(m, p, b))`), when
 * they all give the same one (resource sub-objects of an SDK-like client).
 */
function injectedMethod(cls: Node, index: number, depth = 0): Node | undefined {
  const name = Node.isClassDeclaration(cls) ? cls.getNameNode() : undefined;
  if (!name || depth > 2) return undefined;
  const found = new Set<Node>();
  for (const ref of references(name)) {
    const made = ref.getParent();
    if (!made || !Node.isNewExpression(made) || made.getExpression() !== ref) continue;
    let arg: Node | undefined = made.getArguments()[index];
    arg = arg && unwrapExpression(arg);
    if (arg && Node.isCallExpression(arg) && Node.isPropertyAccessExpression(arg.getExpression()) && (arg.getExpression() as any).getName() === "bind") arg = unwrapExpression((arg.getExpression() as any).getExpression());
    // A forwarding arrow: `(...args) => this.request(...args)`.
    if (arg && Node.isArrowFunction(arg)) {
      const body = unwrapExpression(arg.getBody());
      arg = Node.isCallExpression(body) ? unwrapExpression(body.getExpression()) : undefined;
    }
    const method = arg && Node.isPropertyAccessExpression(arg) && Node.isThisExpression(arg.getExpression()) ? memberMethod(arg) : undefined;
    if (!method) return undefined;
    found.add(method);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * `this.baseUrl()` in a class whose `baseUrl` is abstract: the one subclass of the project that
 * implements it (`protected baseUrl() { return RunpodClient.API_BASE }`). With several, which one
 * runs depends on the instance: not known here.
 */
export function soleOverride(callee: Node): Node | undefined {
  if (!Node.isPropertyAccessExpression(callee) || !Node.isThisExpression(callee.getExpression())) return undefined;
  const cls = callee.getFirstAncestor((n) => Node.isClassDeclaration(n));
  if (!cls || !Node.isClassDeclaration(cls)) return undefined;
  const own = cls.getMethod(callee.getName());
  if (own && !own.isAbstract()) return undefined;
  const impls = derivedClasses(cls).flatMap((d) => d.getMethod(callee.getName()) ?? []).filter((m) => !!m.getBody());
  return impls.length === 1 ? impls[0] : undefined;
}

/** The class a class extends, where the project declares it (a library's class is not followed: its methods have no body here). */
function baseClassOf(cls: Node): Node | undefined {
  try {
    const base = Node.isClassDeclaration(cls) ? cls.getBaseClass() : undefined;
    const sf = base?.getSourceFile();
    return sf && !sf.isDeclarationFile() && !/[\\/]node_modules[\\/]/.test(sf.getFilePath()) ? base : undefined;
  } catch {
    return undefined;
  }
}
