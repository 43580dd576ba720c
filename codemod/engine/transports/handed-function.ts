// A request function handed in (`watch(c, { request })`, `run(send)`): a parameter, or a member of a
// destructured options parameter, whose value is the same request helper at every call of its
// function the run sees. Its calls are that helper's calls. Where the function is exported, code
// outside the run may hand in another, so each call is a site that stays marked (operation-plan.ts).
import { Node } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { objectLiteral, prop } from "../values.ts";
import { unwrapExpression } from "../urls.ts";
import { exportedOutward } from "../outside-callers.ts";
import { referencesOf } from "../nodes.ts";
import type { Root } from "./transport.ts";

type HelperRoot = Extract<Root, { lib: "helper" }>;

/**
 * The helper a parameter holds (`fn`'s parameter `index`, at `path` inside it when destructured),
 * when every caller hands in the same one; `rootOf` reads what an argument is.
 */
export function handedHelper(a: Analysis, fn: Node, index: number, path: string[], rootOf: (n: Node) => Root | undefined): HelperRoot | undefined {
  if (path.length > 1) return undefined;
  const name = heldName(fn, index, path);
  // Only called where it is held: handed on or kept, it may be called where the run does not look.
  if (!name || !referencesOf(fn, name).filter((r) => !r.getFirstAncestor((x) => Node.isTypeNode(x))).every(calledHere)) return undefined;
  const callers = a.evaluator.callers(fn);
  if (!callers?.length) return undefined;
  let found: HelperRoot | undefined;
  const handed: Node[] = [];
  for (const c of callers) {
    if (!Node.isCallExpression(c)) return undefined;
    const arg = c.getArguments()[index];
    if (!arg || Node.isSpreadElement(arg)) return undefined;
    const value = path.length ? prop(objectLiteral(a, arg), path[0]!) : arg;
    if (!value) return undefined;
    const root = rootOf(unwrapExpression(value));
    if (root?.lib !== "helper" || (found && found.sig !== root.sig)) return undefined;
    found = root;
    handed.push(value);
  }
  if (!found) return undefined;
  // The helper handed in is used by the calls made through the parameter, each a site of its own.
  for (const v of handed) a.accounted.add(v);
  const fnName = ((fn as any).getName?.() as string | undefined) ?? (Node.isVariableDeclaration(fn.getParent()) ? (fn.getParent() as any).getName() : "its function");
  const handedIn = exportedOutward(fn) ? `${fnName} is exported, and code outside the run may hand it another request function than ${found.name}` : undefined;
  return { ...found, ...(handedIn ? { handedIn } : {}) };
}

/** The name a parameter (or one member of a destructured one) binds inside the function. */
function heldName(fn: Node, index: number, path: string[]): Node | undefined {
  const param = ((fn as any).getParameters?.() as Node[] | undefined)?.[index];
  const bound = param && Node.isParameterDeclaration(param) ? param.getNameNode() : undefined;
  if (!bound) return undefined;
  if (!path.length) return Node.isIdentifier(bound) ? bound : undefined;
  if (!Node.isObjectBindingPattern(bound)) return undefined;
  const el = bound.getElements().find((e) => (e.getPropertyNameNode()?.getText() ?? e.getName()) === path[0]);
  const n = el?.getNameNode();
  return n && Node.isIdentifier(n) ? n : undefined;
}

/** A reference that is the callee of a call (`request("GET", route)`). */
function calledHere(r: Node): boolean {
  const p = r.getParent();
  return !!p && Node.isCallExpression(p) && p.getExpression() === r;
}
