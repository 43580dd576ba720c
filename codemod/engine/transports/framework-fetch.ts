// The fetch a framework hands its handlers. SvelteKit gives `load`, form actions and `+server.ts`
// handlers an event whose `fetch` sends the same request as the global (it adds the user's cookies
// and resolves relative URLs): a call of it is a fetch call, under the same rules.
import path from "node:path";
import { Node } from "../../ts-morph.ts";
import { isFunctionLike } from "../scope.ts";

/** SvelteKit's route and hooks modules, whose exported functions the framework calls with an event. */
const KIT_MODULE = /^(\+(page|layout)(\.server)?|\+server|hooks\.server)\.(m|c)?(j|t)s$/;
/** SvelteKit's handler and event types (`./$types` is generated, so the name is all a run sees). */
const KIT_TYPE = /\b(PageLoad|PageServerLoad|LayoutLoad|LayoutServerLoad|Actions|Action|RequestHandler|RequestEvent|LoadEvent|ServerLoad|ServerLoadEvent|Load|Handle|HandleFetch)\b/;

/** The type written for a function: its first parameter's, or the variable's or `satisfies` it is held by. */
function declaredTypes(fn: Node): string[] {
  const out: string[] = [];
  const param = (fn as any).getParameters?.()[0] as Node | undefined;
  const paramType = (param as any)?.getTypeNode?.() as Node | undefined;
  if (paramType) out.push(paramType.getText());
  // `load: PageServerLoad = async (…) => …`, `actions = { a: async (…) => … } satisfies Actions`, the member of a typed object.
  for (let n: Node | undefined = fn.getParent(); n && !isFunctionLike(n); n = n.getParent()) {
    if (Node.isVariableDeclaration(n)) {
      const t = n.getTypeNode();
      if (t) out.push(t.getText());
      break;
    }
    if (Node.isSatisfiesExpression(n) || Node.isAsExpression(n)) out.push(n.getTypeNode()?.getText() ?? "");
  }
  return out;
}

/** `fn`'s first parameter is an event SvelteKit gives (a handler of a route module, or one typed with kit's types). */
export function kitEventParam(fn: Node, index: number): boolean {
  if (index !== 0 || !isFunctionLike(fn)) return false;
  return KIT_MODULE.test(path.basename(fn.getSourceFile().getFilePath())) || declaredTypes(fn).some((t) => KIT_TYPE.test(t));
}
