// A value handed to a class of the project as a constructor parameter property
// (`new Client(BASE)` over `constructor(private base: string)`, also `fn.bind(…)` handed so):
// the class reads it as `this.base`, so those reads are where the value goes next.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { classNamed } from "./record-callees.ts";

/** The `this.<name>` reads of the parameter property `arg` is handed to, or undefined when it is not one. */
export function parameterPropertyReads(a: Analysis, arg: Node): Node[] | undefined {
  let handed: Node = arg;
  const bind = arg.getParent();
  if (bind && Node.isPropertyAccessExpression(bind) && bind.getName() === "bind" && bind.getParent() && Node.isCallExpression(bind.getParent()!)) handed = bind.getParent()!;
  const made = handed.getParent();
  if (!made || !Node.isNewExpression(made) || !made.getArguments().includes(handed as never)) return undefined;
  const cls = classNamed(a, made.getExpression());
  const param = cls?.getConstructors()[0]?.getParameters()[made.getArguments().indexOf(handed as never)];
  if (!cls || !param || !param.isParameterProperty()) return undefined;
  return cls.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).filter((access) => access.getName() === param.getName() && Node.isThisExpression(access.getExpression()));
}
