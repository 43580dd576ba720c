// A field of a class that extends a class from outside the project (`override baseURL = …` in a
// `RESTDataSource`): the inherited methods, unseen, may read it. Each call of an inherited member
// (`this.get(…)`, `super.x(…)`) must be a planned site; one that is not, or no such call at all
// (outside code drives the class), is a use that cannot be followed.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { classOfThis } from "./symbols.ts";
import { shortExpression } from "./expression-name.ts";
import { BASE_FIELD_KEYS, declares, projectChain } from "./transports/inherited-verbs.ts";

/** The uses of field `name` (written at `at`) that inherited methods make unseen, each with why; none when the class extends nothing outside the project. */
export function inheritedFieldReads(a: Analysis, at: Node, name: string, accounted: (n: Node) => boolean): { node: Node; why: string }[] {
  const cls = classOfThis(at);
  if (!cls) return [];
  const chain = projectChain(a.evaluator, cls);
  if (!chain.outside) return [];
  const decl = ((cls as any).getMember?.(name) as Node | undefined) ?? at;
  if (!BASE_FIELD_KEYS.includes(name) && !(Node.isPropertyDeclaration(decl) && decl.hasOverrideKeyword())) return [];
  const why = `${name} is a field of ${(cls as any).getName?.() ?? "a class"}, which extends ${chain.outside.name} (outside the project): its inherited methods read it`;
  const out: { node: Node; why: string }[] = [];
  let planned = 0;
  for (const c of chain.classes) {
    for (const access of c.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
      const self = access.getExpression().getKind();
      if (self !== SyntaxKind.ThisKeyword && self !== SyntaxKind.SuperKeyword) continue;
      if (access.getName() === name || declares(chain.classes, access.getName()) || classOfThis(access) !== c) continue;
      const call = access.getParent();
      if (call && Node.isCallExpression(call) && call.getExpression() === access && accounted(access)) planned++;
      else out.push({ node: access, why: `${why}, and ${shortExpression(access)} is not a call the codemod can follow` });
    }
  }
  const named = Node.isPropertyDeclaration(decl) ? decl.getNameNode() : Node.isBinaryExpression(at) ? at.getLeft() : at;
  if (!planned) out.push({ node: named, why: `${why}, and the class makes no call the codemod can follow` });
  return out;
}
