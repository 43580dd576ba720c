// What a module exports and who uses it, ESM and CommonJS alike. The compiler links a name
// imported with `require` to its declaration (forward), but its find-references does not reach
// the importers from a CommonJS export (`module.exports = { request }`, `exports.request = …`,
// `module.exports = request`): the uses of such an export are listed here from the importers'
// side (their `require`s, and ESM imports of the CommonJS module), one index per project, so a
// helper, class or value exported the CommonJS way is followed like an ESM one.
import { Node, SyntaxKind, type Project, type SourceFile } from "../ts-morph.ts";
import { enclosingFunction, identifiersNamed, resolveIdentifier } from "./scope.ts";

export type ModuleResolver = (from: string, specifier: string) => SourceFile | undefined;

/** The export name a CommonJS module's whole value (`module.exports = x`) goes by. */
export const WHOLE_MODULE = "default";
/** Where a module's object of exports is used as a whole (handed on): a use of every export. */
const ANY_EXPORT = "*";

function unwrap(n: Node): Node {
  let x = n;
  while (Node.isParenthesizedExpression(x) || Node.isAsExpression(x) || Node.isSatisfiesExpression(x) || Node.isAwaitExpression(x)) x = x.getExpression();
  return x;
}

/** `module.exports = …`, `exports.x = …`, `module.exports.x = …` statements: the name (or the whole module) and the assignment. */
function commonJsAssignments(sf: SourceFile): { name: string | undefined; left: Node; right: Node; assign: Node }[] {
  const out: { name: string | undefined; left: Node; right: Node; assign: Node }[] = [];
  for (const st of sf.getStatements()) {
    if (!Node.isExpressionStatement(st)) continue;
    const e = st.getExpression();
    if (!Node.isBinaryExpression(e) || e.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) continue;
    const text = e.getLeft().getText().replace(/\s/g, "");
    const m = /^(?:module\.exports|exports)(?:\.([\w$]+))?$/.exec(text);
    if (!m || text === "exports") continue;
    out.push({ name: m[1], left: e.getLeft(), right: unwrap(e.getRight()), assign: e });
  }
  return out;
}

/** The declaration an export name stands for in a parsed module (follows re-exports; CommonJS exports too). */
export function exportedDeclaration(sf: SourceFile, name: string): Node | undefined {
  let decls: Node[] | undefined;
  try {
    decls = sf.getExportedDeclarations().get(name);
  } catch {
    decls = undefined;
  }
  if (decls?.length) return decls[0];
  for (const { name: own, right, assign } of commonJsAssignments(sf)) {
    if (own === undefined && Node.isObjectLiteralExpression(right)) {
      const p = right.getProperty(name);
      if (p) return p;
    }
    if (own === undefined && name === WHOLE_MODULE) return assign;
    if (own === name) return assign;
  }
  return undefined;
}

/** `module.exports = request` (one value: a function, a class, an instance; not an object of exports): the assignment. */
export function commonJsValue(sf: SourceFile): Node | undefined {
  const whole = commonJsAssignments(sf).filter((x) => x.name === undefined);
  const last = whole[whole.length - 1];
  return last && !Node.isObjectLiteralExpression(last.right) ? last.assign : undefined;
}

/** The name node of the local declaration an identifier names (a function, class or variable of the module). */
function localDeclarationName(id: Node): Node | undefined {
  if (!Node.isIdentifier(id)) return undefined;
  const b = resolveIdentifier(id);
  if (!b || (b.kind !== "var" && b.kind !== "function")) return undefined;
  const name = (b.decl as any).getNameNode?.() as Node | undefined;
  return name && Node.isIdentifier(name) ? name : undefined;
}

const exportsCache = new WeakMap<SourceFile, Map<Node, string[]>>();

/**
 * A CommonJS module's exports: each name node that stands for an exported value (the export's own
 * key, the local name it is given as, and that name's declaration) → the export names it goes by.
 */
export function commonJsExports(sf: SourceFile): Map<Node, string[]> {
  let table = exportsCache.get(sf);
  if (table) return table;
  table = new Map();
  exportsCache.set(sf, table);
  const add = (node: Node | undefined, name: string) => {
    if (node) table!.set(node, [...(table!.get(node) ?? []), name]);
  };
  for (const { name, left, right } of commonJsAssignments(sf)) {
    if (name === undefined && Node.isObjectLiteralExpression(right)) {
      for (const p of right.getProperties()) {
        if (Node.isShorthandPropertyAssignment(p)) {
          add(p.getNameNode(), p.getName());
          add(localDeclarationName(p.getNameNode()), p.getName());
        } else if (Node.isPropertyAssignment(p) || Node.isMethodDeclaration(p)) {
          const key = p.getNameNode();
          if (!Node.isIdentifier(key) && !Node.isStringLiteral(key)) continue;
          const exported = Node.isStringLiteral(key) ? key.getLiteralValue() : key.getText();
          add(key, exported);
          const init = Node.isPropertyAssignment(p) ? p.getInitializer() : undefined;
          if (init && Node.isIdentifier(unwrap(init))) {
            add(unwrap(init), exported);
            add(localDeclarationName(unwrap(init)), exported);
          }
        }
      }
      continue;
    }
    const exported = name ?? WHOLE_MODULE;
    add(Node.isPropertyAccessExpression(left) ? left.getNameNode() : left, exported);
    if (Node.isIdentifier(right)) add(right, exported);
    add(localDeclarationName(right), exported);
  }
  return table;
}

const resolvers = new WeakMap<Project, ModuleResolver>();
const importIndexes = new WeakMap<Project, Map<string, Node[]>>();

/** The module resolution of the run (the project index's: `paths`, NodeNext `.js`, index files). */
export function setModuleResolver(project: Project, resolve: ModuleResolver | undefined): void {
  if (resolve) resolvers.set(project, resolve);
  importIndexes.delete(project);
}

/** The uses, in other modules, of the CommonJS export a name node stands for (none for other names). */
export function importerUses(nameNode: Node): Node[] {
  const sf = nameNode.getSourceFile();
  const names = commonJsExports(sf).get(nameNode);
  if (!names?.length) return [];
  const index = importIndex(nameNode.getProject());
  return [...names.flatMap((n) => index.get(key(sf, n)) ?? []), ...(index.get(key(sf, ANY_EXPORT)) ?? [])];
}

const key = (sf: SourceFile, name: string) => `${sf.getFilePath()}\0${name}`;

function requiredSpecifier(call: Node): string | undefined {
  if (!Node.isCallExpression(call) || call.getExpression().getText() !== "require") return undefined;
  const arg = call.getArguments()[0];
  return arg && (Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg)) ? arg.getLiteralValue() : undefined;
}

/** The identifiers of a module that read the name a declaration binds (not the declaring one). */
function localUses(decl: Node, name: Node): Node[] {
  const text = name.getText();
  const scope = Node.isImportDeclaration(decl) || Node.isImportEqualsDeclaration(decl) ? decl.getSourceFile() : enclosingFunction(decl);
  return identifiersNamed(scope, text).filter((d) => {
    if (d === name) return false;
    const p = d.getParent();
    if (p && (Node.isPropertyAccessExpression(p) || Node.isPropertyAssignment(p)) && p.getNameNode() === d) return false;
    if (p && Node.isBindingElement(p) && p.getPropertyNameNode() === d) return false;
    if (p && (Node.isImportSpecifier(p) || Node.isImportClause(p) || Node.isNamespaceImport(p))) return false;
    return resolveIdentifier(d)?.decl === decl;
  });
}

/** Every module's uses of the CommonJS modules it requires or imports: `file\0export` → the use nodes. */
function importIndex(project: Project): Map<string, Node[]> {
  let index = importIndexes.get(project);
  if (index) return index;
  index = new Map();
  importIndexes.set(project, index);
  // Without the run's resolver (one file at a time, jscodeshift) there are no other modules.
  const resolve = resolvers.get(project);
  if (!resolve) return index;
  const add = (target: SourceFile, name: string, nodes: Node[]) => {
    if (nodes.length) index!.set(key(target, name), [...(index!.get(key(target, name)) ?? []), ...nodes]);
  };
  // A whole module bound to a name. One value (`module.exports = request`): every use is its use.
  // An object of exports: `m.x` uses export x, and `m` handed on as a whole may use any of them.
  const whole = (target: SourceFile, decl: Node, name: Node) => {
    const single = !!commonJsValue(target);
    for (const r of localUses(decl, name)) {
      const p = r.getParent();
      if (!single && p && Node.isPropertyAccessExpression(p) && p.getExpression() === r) add(target, p.getName(), [p]);
      else add(target, single ? WHOLE_MODULE : ANY_EXPORT, [r]);
    }
  };
  for (const sf of project.getSourceFiles()) {
    if (sf.isDeclarationFile() || /[\\/]node_modules[\\/]/.test(sf.getFilePath())) continue;
    const cjs = (spec: string) => {
      const target = resolve(sf.getFilePath(), spec);
      return target && target !== sf && commonJsExports(target).size ? target : undefined;
    };
    if (sf.getFullText().includes("require")) {
      for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
        const spec = requiredSpecifier(call);
        const target = spec === undefined ? undefined : cjs(spec);
        if (!target) continue;
        let outer: Node = call;
        while (outer.getParent() && (Node.isAwaitExpression(outer.getParent()!) || Node.isParenthesizedExpression(outer.getParent()!))) outer = outer.getParent()!;
        const p = outer.getParent();
        // `require("./http").request(…)`, `const request = require("./http").request`.
        if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === outer && !commonJsValue(target)) {
          const holder = p.getParent();
          if (holder && Node.isVariableDeclaration(holder) && holder.getInitializer() === p && Node.isIdentifier(holder.getNameNode())) add(target, p.getName(), localUses(holder, holder.getNameNode()));
          else add(target, p.getName(), [p]);
          continue;
        }
        if (!p || !Node.isVariableDeclaration(p) || p.getInitializer() !== outer) {
          add(target, commonJsValue(target) ? WHOLE_MODULE : ANY_EXPORT, [outer]);
          continue;
        }
        const name = p.getNameNode();
        if (Node.isIdentifier(name)) whole(target, p, name);
        else if (!Node.isObjectBindingPattern(name) || commonJsValue(target)) add(target, commonJsValue(target) ? WHOLE_MODULE : ANY_EXPORT, [p]);
        else {
          for (const el of name.getElements()) {
            const local = el.getNameNode();
            if (!Node.isIdentifier(local)) add(target, ANY_EXPORT, [el]);
            else if (el.getDotDotDotToken()) add(target, ANY_EXPORT, localUses(p, local));
            else {
              const prop = el.getPropertyNameNode();
              add(target, prop ? (Node.isStringLiteral(prop) ? prop.getLiteralValue() : prop.getText()) : local.getText(), localUses(p, local));
            }
          }
        }
      }
    }
    // ESM imports of a CommonJS module, and TypeScript's `import x = require(…)`.
    for (const imp of sf.getImportDeclarations()) {
      if (imp.isTypeOnly()) continue;
      const target = cjs(imp.getModuleSpecifierValue());
      if (!target) continue;
      const def = imp.getDefaultImport();
      if (def) whole(target, imp, def);
      const ns = imp.getNamespaceImport();
      if (ns) whole(target, imp, ns);
      for (const spec of imp.getNamedImports()) {
        if (spec.isTypeOnly()) continue;
        add(target, spec.getName(), localUses(imp, spec.getAliasNode() ?? spec.getNameNode()));
      }
    }
    for (const imp of sf.getDescendantsOfKind(SyntaxKind.ImportEqualsDeclaration)) {
      const ref = imp.getModuleReference();
      const e = Node.isExternalModuleReference(ref) ? ref.getExpression() : undefined;
      const target = e && Node.isStringLiteral(e) ? cjs(e.getLiteralValue()) : undefined;
      if (target) whole(target, imp, imp.getNameNode());
    }
  }
  return index;
}

/** The uses of a module's default export in the modules that import it by a default import. */
export function defaultImportUses(target: SourceFile, resolve: ModuleResolver | undefined): Node[] {
  const out: Node[] = [];
  for (const sf of target.getProject().getSourceFiles()) {
    for (const imp of sf.getImportDeclarations()) {
      const name = imp.getDefaultImport();
      if (name && resolve?.(sf.getFilePath(), imp.getModuleSpecifierValue()) === target) out.push(...localUses(imp, name));
    }
  }
  return out;
}
