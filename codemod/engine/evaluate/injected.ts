// A constructor parameter the project never fills itself (`constructor(private http: HttpClient)`,
// Angular's and Nest's dependency injection): what it holds is whatever the container makes, an
// instance of the package class its type names. The evaluator answers that as an object made by
// code it cannot see into, like `inject(HttpClient)` or `new HttpService()` in a field.
import { Node } from "../../ts-morph.ts";
import { bindAcross, type ModuleResolver } from "../symbols.ts";
import type { Value } from "./value.ts";

/** The package class a constructor parameter's type names (`http: HttpClient`), as the made instance it holds; undefined otherwise. */
export function injectedInstance(param: Node, resolve: ModuleResolver | undefined): Value | undefined {
  if (!Node.isParameterDeclaration(param) || !Node.isConstructorDeclaration(param.getParent())) return undefined;
  const type = param.getTypeNode();
  if (!type || !Node.isTypeReference(type)) return undefined;
  const name = type.getTypeName();
  if (!Node.isIdentifier(name)) return undefined;
  const b = bindAcross(name, resolve);
  // Only a package's class: a project class is followed through its own declaration, a relative
  // import the run cannot resolve is not known.
  if (b?.kind !== "import" || /^[./]/.test(b.module)) return undefined;
  return { kind: "made", call: type, frame: undefined };
}

/** The made value stands for an injected instance (its `call` is the parameter's type, not a call). */
export function isInjected(v: Value): boolean {
  return v.kind === "made" && Node.isTypeReference(v.call);
}
