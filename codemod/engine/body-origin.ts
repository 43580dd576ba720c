// Where a request body's value is written, so it is converted there: followed from the send
// through what serves only this send. A const used nowhere else is its initializer;
// `JSON.stringify(x)` is the object x (serialised); a conditional is both branches; a call of a
// project function that nothing else calls (nor exports), with no declared return type, is what
// it returns, in its own scope (its parameters are the same names there). Each place found is an
// object literal (converted in place) or a value built elsewhere (converted from its declared
// fields, or wrapped in the adapter when it can be an object, else marked).
import { findReferencesAsNodes } from "./find-references.ts";
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind, returnedExpressions } from "./values.ts";
import { enclosingFunction, isFunctionLike } from "./scope.ts";
import { isTypeScriptFile, plainParameterUses, referencesOf } from "./nodes.ts";
import { functionName } from "./references.ts";
import { unwrapExpression } from "./urls.ts";
import { commonJsExports } from "./module-exports.ts";
import { optionsOf } from "./evaluate/value.ts";
import { shortExpression } from "./expression-name.ts";
import { shownAsText } from "./display-sinks.ts";

const MAX_DEPTH = 8;
const FORM = /^(?:globalThis\.)?(FormData|URLSearchParams|Blob|File|ReadableStream|ArrayBuffer|Buffer|Uint8Array)\b/;

export interface BodyPlace {
  /** The expression that holds the body (or one of its values): an object literal, or a value built elsewhere. */
  node: Node;
  /**
   * Where a value built elsewhere is wrapped (in the adapter): the outermost expression on the way
   * to it that still holds the object as it is (not serialised, not one branch of several), so
   * the wrap stays as near the send as it can.
   */
  wrap: Node;
  /** Why it was not followed further (a variable or function that serves more than this send), for a mark. */
  why?: string;
}

/** The places the body at the send (`node`, the send's own body expression) is written. */
export function bodyPlaces(a: Analysis, node: Node, depth = 0, wrap = unwrapExpression(node)): BodyPlace[] {
  const n = unwrapExpression(node);
  const inner = Node.isAwaitExpression(n) ? unwrapExpression(n.getExpression()) : n;
  if (depth > MAX_DEPTH) return [{ node: n, wrap }];
  if (isStringify(inner)) return bodyPlaces(a, inner.getArguments()[0]!, depth + 1);
  if (Node.isConditionalExpression(inner)) return [...bodyPlaces(a, inner.getWhenTrue(), depth + 1), ...bodyPlaces(a, inner.getWhenFalse(), depth + 1)];
  const next = Node.isIdentifier(inner) ? soleInitializer(a, inner) ?? callerArguments(a, inner) : Node.isCallExpression(inner) ? soleCallReturns(a, inner) : undefined;
  if (!next || typeof next === "string") return [{ node: n, wrap, ...(next ? { why: next } : {}) }];
  // A parameter: each caller's argument is written where that caller is (one branch each).
  if (Node.isIdentifier(inner) && bind(a, inner)?.kind === "param") return next.flatMap((r) => bodyPlaces(a, r, depth + 1, next.length === 1 ? r : undefined));
  // Several returns are branches: each is wrapped where it is.
  return next.flatMap((r) => bodyPlaces(a, r, depth + 1, next.length === 1 ? wrap : undefined));
}

function isStringify(n: Node): n is Node & { getArguments(): Node[] } {
  return Node.isCallExpression(n) && n.getExpression().getText().replace(/\s/g, "") === "JSON.stringify" && !!n.getArguments()[0];
}

/**
 * A variable declared only to be used at `use`: its initializer (else why not, or undefined where
 * it is not a variable). A declared type keeps it (the converted value would not match it), except
 * for a JSON string.
 */
function soleInitializer(a: Analysis, use: Node): Node[] | string | undefined {
  const b = bind(a, use);
  if (b?.kind !== "var" || b.path.length || !b.init || !Node.isVariableDeclaration(b.decl)) return undefined;
  if (!usedOnlyHere(b.decl, use)) return `${use.getText()} is also used elsewhere`;
  if (b.decl.getTypeNode() && !isStringify(unwrapExpression(b.init))) return `${use.getText()} is declared as ${b.decl.getTypeNode()!.getText()}`;
  return [b.init];
}

/**
 * A parameter used only at this send (`async function deploy(body) { … axios.post(url, body) }`),
 * of a function every caller of which is in sight: the arguments its callers give there (else why
 * not; undefined where it is not a parameter). A declared type keeps it, as for a variable.
 */
function callerArguments(a: Analysis, use: Node): Node[] | string | undefined {
  const b = bind(a, use);
  const plain = b?.kind === "param" && !b.path.length ? plainParameterUses(b.decl) : undefined;
  if (b?.kind !== "param" || !plain) return undefined;
  const { param, refs } = plain;
  if (refs.length !== 1 || refs[0] !== use) return `${use.getText()} is also used elsewhere`;
  if (param.getTypeNode()) return `${use.getText()} is declared as ${param.getTypeNode()!.getText()}`;
  if (exported(b.fn)) return `${shortExpression(functionName(b.fn) ?? b.fn)} is exported`;
  const callers = a.evaluator.callers(b.fn);
  if (!callers?.length) return `${use.getText()} is given by callers the codemod cannot see`;
  const args = callers.map((c) => (c as Node & { getArguments(): Node[] }).getArguments()[b.index]);
  if (args.some((x) => !x || Node.isSpreadElement(x))) return `${use.getText()} is not given by every caller`;
  return args as Node[];
}

/**
 * A const declared in its scope and used nowhere else there but at this use (nor exported); the
 * option key `body:` is not a use, nor printing or logging it (`console.log(body)`: a reader of
 * the log sees the converted value, no code reads it; display-sinks.ts).
 */
export function usedOnlyHere(decl: Node, use: Node): boolean {
  const statement = decl.getParent()?.getParent();
  const name = Node.isVariableDeclaration(decl) ? decl.getNameNode() : undefined;
  if (!statement || !Node.isVariableStatement(statement) || statement.isExported() || !name || !Node.isIdentifier(name)) return false;
  const refs = referencesOf(enclosingFunction(decl), name);
  return refs.includes(use) && refs.every((r) => r === use || shownAsText(r));
}

/**
 * What a project function returns, when this call is its only use (not exported, no declared
 * return type in TypeScript); else why not (undefined: not a project function).
 */
function soleCallReturns(a: Analysis, call: Node & { getExpression(): Node }): Node[] | string | undefined {
  const callee = a.evaluator.evaluate(call.getExpression());
  const fn = callee.kind === "function" ? callee.node : undefined;
  if (!fn || !isFunctionLike(fn) || Node.isConstructorDeclaration(fn) || (fn as any).isGenerator?.()) return undefined;
  const name = shortExpression(call.getExpression());
  const declared = (fn as any).getReturnTypeNode?.() as Node | undefined;
  if (declared && isTypeScriptFile(fn.getSourceFile().getFilePath())) return `${name} declares its return type ${declared.getText()}`;
  const callers = a.evaluator.callers(fn);
  if (!callers || callers.length !== 1 || callers[0] !== call) return `${name} is also used elsewhere`;
  if (exported(fn)) return `${name} is exported`;
  const returns = returnedExpressions(fn);
  return returns.length ? returns : `${name} returns nothing the codemod can see`;
}

/** Whether a function may be called from outside the project's sight: exported by ES or CommonJS syntax. */
export function exported(fn: Node): boolean {
  const holder = fn.getParent();
  const decl = holder && Node.isVariableDeclaration(holder) ? holder : fn;
  if ((decl as any).isExported?.() || (decl as any).isDefaultExport?.()) return true;
  if (Node.isMethodDeclaration(fn) && !fn.hasModifier(SyntaxKind.PrivateKeyword) && !fn.getNameNode().getText().startsWith("#")) return true;
  const name = (decl as any).getNameNode?.() as Node | undefined;
  let refs: Node[] = [];
  try {
    refs = name ? findReferencesAsNodes(name) : [];
  } catch {
    return true;
  }
  return refs.some((r) => {
    const p = r.getParent();
    return !!p && (Node.isExportSpecifier(p) || Node.isExportAssignment(p) || commonJsExports(r.getSourceFile()).has(r));
  });
}

/**
 * Why a value may not be wrapped as an object, or undefined when it can be one: the adapter
 * converts objects, and a string (a JSON text), a number or a form is not one.
 */
export function notAnObject(a: Analysis, node: Node): string | undefined {
  const u = unwrapExpression(node);
  if (Node.isTemplateExpression(u) || Node.isNoSubstitutionTemplateLiteral(u) || Node.isStringLiteral(u)) return "a string";
  for (const o of optionsOf(a.evaluator.evaluate(node))) {
    if (o.kind === "string") return "a string";
    if (o.kind === "made" && isStringify(unwrapExpression(o.call))) return "a JSON string";
    if (o.kind === "made" && Node.isNewExpression(o.call)) {
      const form = FORM.exec(o.call.getExpression().getText())?.[1];
      if (form) return `a ${form}`;
    }
  }
  let type: string | undefined;
  try {
    const t = node.getType();
    const members = t.isUnion() ? t.getUnionTypes() : [t];
    if (members.some((m) => m.isString() || m.isStringLiteral() || m.isTemplateLiteral?.())) return "a string";
    if (t.isNumber() || t.isNumberLiteral() || t.isBoolean() || t.isBooleanLiteral()) return `a ${t.isNumber() || t.isNumberLiteral() ? "number" : "boolean"}`;
    type = t.getText(node);
  } catch {
    return undefined;
  }
  const form = type && FORM.exec(type)?.[1];
  return form ? `a ${form}` : undefined;
}
