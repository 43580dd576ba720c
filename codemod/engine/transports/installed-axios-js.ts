// Whether an installed package's own JavaScript makes its factory's instance with axios
// (`export function createAxios(config) { return axios.create(config) }`, also CommonJS). The
// package's entry file (package.json `main` / `module` / `exports["."]`) is parsed on its own, for
// syntax only: it is read, never added to the run's project, and nothing else of node_modules is.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ts, type TypeScript } from "../../ts-morph.ts";
import { packageDir } from "../package-types.ts";

const cache = new Map<string, boolean>();

/** The entry JavaScript file a package names, or its index.js. */
function entryJs(dir: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const dot = typeof pkg.exports === "string" ? pkg.exports : pkg.exports?.["."];
    const fromExports = typeof dot === "string" ? dot : dot?.require ?? dot?.import ?? dot?.default;
    for (const named of [pkg.main, pkg.module, typeof fromExports === "string" ? fromExports : undefined, "index.js"]) {
      if (typeof named !== "string") continue;
      const file = path.join(dir, named);
      for (const f of [file, `${file}.js`, path.join(file, "index.js")]) if (existsSync(f) && /\.(c|m)?js$/.test(f)) return f;
    }
  } catch {
    /* no readable package.json: no evidence */
  }
  return undefined;
}

/** Local names bound to axios's default export (`import axios from "axios"`, `const ax = require("axios")`). */
function axiosNames(sf: TypeScript.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (n: TypeScript.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text === "axios" && n.importClause?.name) names.add(n.importClause.name.text);
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
      let init: TypeScript.Expression = n.initializer;
      // `require("axios").default`, `__importDefault(require("axios"))`
      if (ts.isPropertyAccessExpression(init) && init.name.text === "default") init = init.expression;
      if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text !== "require" && init.arguments.length === 1) init = init.arguments[0]!;
      if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === "require" && init.arguments.length === 1 && ts.isStringLiteral(init.arguments[0]!) && init.arguments[0].text === "axios") names.add(n.name.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return names;
}

/** `axios.create(…)` or `axios.default.create(…)` with `axios` one of `names`. */
function isAxiosCreate(e: TypeScript.Expression, names: Set<string>): boolean {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression) || e.expression.name.text !== "create") return false;
  let target: TypeScript.Expression = e.expression.expression;
  if (ts.isPropertyAccessExpression(target) && target.name.text === "default") target = target.expression;
  return ts.isIdentifier(target) && names.has(target.text);
}

/** The function the entry exports under `name` (a declaration, `exports.name = function…`, `const name = (…) => …` exported). */
function exportedFunction(sf: TypeScript.SourceFile, name: string): TypeScript.FunctionLikeDeclaration | undefined {
  let found: TypeScript.FunctionLikeDeclaration | undefined;
  const visit = (n: TypeScript.Node): void => {
    if (found) return;
    if (ts.isFunctionDeclaration(n) && n.name?.text === name && n.body) found = n;
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) found = n.initializer;
    else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(n.left) && n.left.name.text === name && (ts.isArrowFunction(n.right) || ts.isFunctionExpression(n.right))) found = n.right;
    else ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** Every value the function returns is `axios.create(…)` (an arrow's expression body counts as its return). */
function returnsAxiosCreate(fn: TypeScript.FunctionLikeDeclaration, names: Set<string>): boolean {
  if (fn.body && !ts.isBlock(fn.body)) return isAxiosCreate(fn.body as TypeScript.Expression, names);
  const returned: TypeScript.Expression[] = [];
  let bare = false;
  const visit = (n: TypeScript.Node): void => {
    if (ts.isFunctionLike(n) && n !== fn) return;
    if (ts.isReturnStatement(n)) n.expression ? returned.push(n.expression) : (bare = true);
    ts.forEachChild(n, visit);
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
  return !bare && returned.length > 0 && returned.every((e) => isAxiosCreate(e, names));
}

/** Whether the package `name`, installed for `fromFile`, exports `exportName` as a function returning `axios.create(…)`. */
export function installedAxiosFactory(fromFile: string, name: string, exportName: string): boolean {
  const dir = packageDir(fromFile, name);
  const entry = dir && entryJs(dir);
  if (!entry) return false;
  const key = `${entry}\0${exportName}`;
  if (cache.has(key)) return cache.get(key)!;
  let out = false;
  try {
    const sf = ts.createSourceFile(entry, readFileSync(entry, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const names = axiosNames(sf);
    const fn = names.size ? exportedFunction(sf, exportName) : undefined;
    out = !!fn && returnsAxiosCreate(fn, names);
  } catch {
    out = false;
  }
  cache.set(key, out);
  return out;
}
