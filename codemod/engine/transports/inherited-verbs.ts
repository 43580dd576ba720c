// Calls by convention on a project class that extends a class from outside the project (Apollo's
// `RESTDataSource`, an SDK's base client): `this.get("pods")`, `this.post(path, { body })` call a verb
// method the class inherits and does not declare, on an object whose own base-like field
// (`override baseURL = "…/v1/"`, `this.baseUrl = …` in the constructor) holds a v1 base. The
// inherited method is unseen, so the field is its base: the call is a site relative to it.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { classOfThis } from "../symbols.ts";
import { unwrapExpression, type JoinMode } from "../urls.ts";
import type { Analysis } from "../state.ts";
import type { External } from "../values.ts";
import { baseIn } from "../evaluate/bases.ts";
import { optionsOf } from "../evaluate/value.ts";
import type { Evaluator } from "../evaluate/evaluator.ts";

export const BASE_FIELD_KEYS = ["baseURL", "baseUrl", "prefixUrl", "baseUri", "baseURI", "apiBase", "apiUrl", "baseApiUrl"];

/** Packages whose base class resolves a relative path with `new URL(path, this.baseURL)` and answers the parsed body. */
const URL_JOINED = new Set(["@apollo/datasource-rest"]);

/** The project class a receiver is (`this`, or an instance of one class of the project). */
function receiverClass(a: Analysis, receiver: Node): Node | undefined {
  if (receiver.getKind() === SyntaxKind.ThisKeyword) return classOfThis(receiver);
  const options = optionsOf(a.evaluator.evaluate(receiver));
  const classes = new Set(options.map((o) => (o.kind === "instance" ? o.cls : undefined)));
  return classes.size === 1 ? [...classes][0] : undefined;
}

/** The project classes from `cls` up, and the outside class they end on (its package, or `?` when unresolved). */
export function projectChain(ev: Evaluator, cls: Node): { classes: Node[]; outside?: { name: string; module: string } } {
  const classes: Node[] = [];
  for (let c: Node | undefined = cls; c && classes.length < 8; ) {
    classes.push(c);
    const ext = (c as any).getExtends?.() as Node | undefined;
    if (!ext) return { classes };
    const expr = (ext as any).getExpression() as Node;
    const options = optionsOf(ev.evaluate(expr));
    const next = options.length === 1 && options[0]!.kind === "function" && (Node.isClassDeclaration(options[0]!.node) || Node.isClassExpression(options[0]!.node)) ? options[0]!.node : undefined;
    if (!next) {
      const mod = options.length === 1 && options[0]!.kind === "module" ? options[0]!.module : "?";
      return { classes, outside: { name: expr.getText(), module: mod } };
    }
    c = next;
  }
  return { classes };
}

/** Whether a class of the chain declares the member itself (then it is the project's method, not an inherited one). */
export function declares(classes: Node[], name: string): boolean {
  const own = (c: Node) => ((c as any).getMembers?.() as Node[]).some((m) => (m as any).getName?.() === name);
  // A constructor's parameter property (`constructor(private token: string)`) is the class's own member too.
  const param = (c: Node) => c.getDescendantsOfKind(SyntaxKind.Parameter).some((p) => p.isParameterProperty() && p.getName() === name);
  return classes.some((c) => own(c) || param(c));
}

/** The base-like fields the chain writes (initializers, constructor assignments), each with the node holding its value. */
export function baseFields(classes: Node[]): { key: string; value: Node; decl: Node }[] {
  const out: { key: string; value: Node; decl: Node }[] = [];
  for (const c of classes) {
    for (const m of (c as any).getMembers?.() as Node[]) {
      if (Node.isPropertyDeclaration(m) && BASE_FIELD_KEYS.includes(m.getName()) && m.getInitializer()) out.push({ key: m.getName(), value: m.getInitializer()!, decl: m });
    }
    for (const bin of c.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
      if (bin.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) continue;
      const left = unwrapExpression(bin.getLeft());
      if (Node.isPropertyAccessExpression(left) && BASE_FIELD_KEYS.includes(left.getName()) && left.getExpression().getKind() === SyntaxKind.ThisKeyword && classOfThis(left) === c) out.push({ key: left.getName(), value: bin.getRight(), decl: bin });
    }
  }
  return out;
}

export interface InheritedVerb {
  external: External;
  /** The outside class the verb comes from. */
  outside: { name: string; module: string };
  /** The library answers the parsed body (Apollo's data sources). */
  parsedBody: boolean;
}

/** `this.get(path, …)` (or `api.get(…)` on an instance) where `get` is inherited from outside and a base-like field holds a v1 base. */
export function inheritedVerb(a: Analysis, receiver: Node, verb: string): InheritedVerb | undefined {
  const cls = receiverClass(a, receiver);
  if (!cls) return undefined;
  const chain = projectChain(a.evaluator, cls);
  if (!chain.outside || declares(chain.classes, verb)) return undefined;
  for (const f of baseFields(chain.classes)) {
    const found = baseIn(a.evaluator.evaluate(f.value));
    if (!found) continue;
    a.baseSource.set(unwrapExpression(f.value), found.source);
    const join: JoinMode = URL_JOINED.has(chain.outside.module) ? "url" : "slash";
    return { external: { value: found.value, node: f.value, join }, outside: chain.outside, parsedBody: URL_JOINED.has(chain.outside.module) };
  }
  return undefined;
}
