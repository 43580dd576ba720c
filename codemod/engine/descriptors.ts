// A request descriptor: an object literal a project function returns (`podAction(id, "stop")`
// giving `{ method: "POST", url: \`${BASE}/pods/${id}/stop\` }`), held by a const and sent from
// elsewhere (`fetch(d.url, { method: d.method })`, `axios(d)`). Reading `d.url` is reading that
// literal's `url`, with the builder's parameters bound to this call's arguments, so the sender's
// URL, method and body are the descriptor's, and edits land where the descriptor is built.
import { Node } from "../ts-morph.ts";
import { unwrapExpression } from "./urls.ts";
import type { Analysis } from "./state.ts";
import { enclosingFunction, returnedExpressions } from "./scope.ts";
import { functionNamed } from "./record-callees.ts";
import { referencesOf, typedOuter } from "./nodes.ts";
import { builderCallers } from "./table-descriptors.ts";
import { chosenCase, everyCaseKnown } from "./switch-descriptors.ts";
import { callsLibrary } from "./call-reader.ts";

export interface Descriptor {
  /** The builder's call (`podAction(id, "stop")`). */
  call: Node;
  /** The function building it. */
  builder: Node;
  /** The object literal it returns. */
  literal: Node & { getProperties(): Node[] };
}

/**
 * The descriptor an expression holds: a call of a project function whose only return is an object
 * literal, made in place or held by a `const` that nothing writes. Several returns are several
 * descriptors: `several` says so, and the value is not read as one, unless they are the cases of a
 * switch over the action and every call names its case (switch-descriptors.ts).
 */
export function descriptorOf(a: Analysis, node: Node | undefined): Descriptor | { several: Node[]; call: Node; builder: Node } | undefined {
  if (!node) return undefined;
  let n = unwrapExpression(node);
  if (Node.isAwaitExpression(n)) return undefined;
  if (Node.isIdentifier(n)) {
    const b = bindConst(n);
    if (!b) return undefined;
    n = unwrapExpression(b);
  }
  if (!Node.isCallExpression(n)) return undefined;
  const builder = functionNamed(a, n.getExpression());
  if (!builder || (builder as any).isAsync?.() || (builder as any).isGenerator?.()) return undefined;
  const returns = returnedExpressions(builder).map(unwrapExpression);
  if (!returns.length || !returns.every((r) => Node.isObjectLiteralExpression(r))) return undefined;
  if (returns.length > 1) {
    // A switch over the action: the case this call's literal action reaches, when every call's is known.
    // (The case first: it is read from the syntax alone; listing every caller asks the compiler.)
    const case_ = chosenCase(builder, n, returns);
    const chosen = case_ && everyCaseKnown(builder, returns) ? case_ : undefined;
    return chosen ? { call: n, builder, literal: chosen as Descriptor["literal"] } : { several: returns, call: n, builder };
  }
  return { call: n, builder, literal: returns[0] as Descriptor["literal"] };
}

/** The initializer of a `const` bound to a plain name (not destructured, never written). */
function bindConst(id: Node): Node | undefined {
  const sym = id.getSymbol();
  const decl = sym?.getDeclarations()[0];
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return undefined;
  const list = decl.getParent();
  if (!list || !Node.isVariableDeclarationList(list) || list.getDeclarationKind() !== "const") return undefined;
  if (decl.getSourceFile() !== id.getSourceFile()) return undefined;
  return decl.getInitializer();
}

/** `d.key` of a descriptor: the literal's own property (no spread of it in between), with its builder call. */
export function descriptorMember(a: Analysis, node: Node): { value: Node; call: Node; builder: Node; literal: Node } | undefined {
  const n = unwrapExpression(node);
  if (!Node.isPropertyAccessExpression(n)) return undefined;
  const d = descriptorOf(a, n.getExpression());
  if (!d || "several" in d) return undefined;
  const value = ownKey(d.literal, n.getName());
  if (!value || !everyCallSent(a, d.builder)) return undefined;
  return { value, call: d.call, builder: d.builder, literal: d.literal };
}

/**
 * Whether every descriptor the builder makes goes to one send that reads its keys: each call of it
 * initialises a `const` read only as `d.key` inside one call's arguments, or is given in place, whole, to an HTTP library's call. A descriptor handed on
 * whole (`enqueue(stopRequest(id))`), returned, or read by two calls may be sent where the run does
 * not look: then none is followed, and the builder's base keeps v1 (do no harm).
 */
function everyCallSent(a: Analysis, builder: Node): boolean {
  const callers = builderCallers(builder);
  if (!callers?.length) return false;
  return callers.every((c) => {
    // Called in place, given whole to an HTTP library's call (`axios(stopRequest(id))`, `axios({ ...req(), headers })`): that call is its one send.
    if (wholeSend(a, typedOuter(c))) return true;
    const decl = typedOuter(c).getParent();
    if (!decl || !Node.isVariableDeclaration(decl) || typedOuter(c) !== decl.getInitializer() || !Node.isIdentifier(decl.getNameNode())) return false;
    const list = decl.getParent();
    if (!list || !Node.isVariableDeclarationList(list) || list.getDeclarationKind() !== "const") return false;
    const refs = referencesOf(enclosingFunction(decl), decl.getNameNode());
    let send: Node | undefined;
    for (const r of refs) {
      // Sent whole (`axios(d)`, `fetch(d.url, d)`, `axios({ ...d, headers })`): the call it is given to is the send.
      const whole = wholeSend(a, r);
      if (whole) {
        if (send && whole !== send) return false;
        send = whole;
        continue;
      }
      const access = r.getParent();
      if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== r) return false;
      // (The outermost call whose arguments hold the read: `fetch(d.url, { body: JSON.stringify(d.body) })` is one send.)
      const call = access.getAncestors().filter((x) => Node.isCallExpression(x) && x.getArguments().some((arg) => arg === access || !!access.getFirstAncestor((y) => y === arg))).pop();
      if (!call || (send && call !== send)) return false;
      send = call;
    }
    return !!send;
  });
}

/**
 * The call a descriptor's name (or its builder's call, made in place) is given to whole (as an argument, or spread into an object literal
 * argument), when that call is an HTTP library's (`axios(d)`, `fetch(d.url, d)`, `api.request(d)`) or,
 * given as the argument itself, a project helper's reading its path, method and body off it (`send(d)`):
 * handed to anything else (`enqueue(d)`, a project function that does not read its request off it),
 * it may be sent where the run does not look.
 */
function wholeSend(a: Analysis, ref: Node): Node | undefined {
  const parent = ref.getParent();
  const literal = parent && Node.isSpreadAssignment(parent) ? parent.getParent() : undefined;
  const call = literal ? literal.getParent() : parent;
  const given = literal ?? ref;
  return call && Node.isCallExpression(call) && call.getArguments().includes(given as never) && callsLibrary(a, call, literal ? undefined : given) ? call : undefined;
}

/**
 * The descriptor a send is given whole (`axios(d)`, `fetch(d.url, d)`, `axios({ ...d, headers })`):
 * its returned literal, read as the request's config where it is built; `outer` is the literal it is
 * spread into. Only when every descriptor its builder makes goes to one send, and the outer literal
 * writes none of the request's own keys (then the request is not the descriptor's alone).
 */
export function wholeDescriptor(a: Analysis, node: Node | undefined, keys: string[]): { literal: Descriptor["literal"]; call: Node; builder: Node; outer?: Node } | undefined {
  if (!node) return undefined;
  const n = unwrapExpression(node);
  if (Node.isObjectLiteralExpression(n)) {
    const props = n.getProperties();
    const spreads = props.filter((p) => Node.isSpreadAssignment(p));
    if (spreads.length !== 1) return undefined;
    const inner = wholeDescriptor(a, (spreads[0] as any).getExpression(), keys);
    if (!inner || props.some((p) => keys.includes((p as any).getName?.()))) return undefined;
    return { ...inner, outer: n };
  }
  const d = descriptorOf(a, n);
  if (!d || "several" in d || !everyCallSent(a, d.builder)) return undefined;
  return { literal: d.literal, call: d.call, builder: d.builder };
}

/** Whether a node lies in the literal of a descriptor given whole to this call, built for this send alone (its builder's one call). */
export function builtForSend(a: Analysis, node: Node, call: Node): boolean {
  return ((call as any).getArguments?.() ?? []).some((arg: Node) => {
    const whole = wholeDescriptor(a, arg, []);
    return !!whole && builderCallers(whole.builder)?.length === 1 && (whole.literal === node || !!node.getFirstAncestor((x) => x === whole.literal));
  });
}

/** The initializer of a key written in the literal itself (a spread may carry it: then not known). */
export function ownKey(literal: Node & { getProperties(): Node[] }, key: string): Node | undefined {
  let found: Node | undefined;
  for (const p of literal.getProperties()) {
    if (Node.isSpreadAssignment(p)) {
      found = undefined;
      continue;
    }
    if ((p as any).getName?.() !== key) continue;
    if (Node.isPropertyAssignment(p)) found = p.getInitializer();
    else if (Node.isShorthandPropertyAssignment(p)) found = p.getNameNode();
  }
  return found;
}

/** Whether the const holding a descriptor is read only by this sender (one send, one site). */
export function heldForOneSend(holder: Node, use: Node): boolean {
  const decl = holder.getParent();
  if (!decl || !Node.isVariableDeclaration(decl) || !Node.isIdentifier(decl.getNameNode())) return false;
  const refs = referencesOf(enclosingFunction(decl), decl.getNameNode());
  return refs.length === 1 && refs[0] === use;
}

/**
 * What a sender's `d.method` / `d.body` is written as: the descriptor's own expression for the key,
 * and where that is a parameter of the builder, this call's argument for it; else the node itself.
 */
export function throughDescriptor(a: Analysis, node: Node | undefined): Node | undefined {
  const m = node && descriptorMember(a, node);
  if (!m) return node;
  const v = unwrapExpression(m.value);
  if (Node.isIdentifier(v)) {
    const params = ((m.builder as any).getParameters?.() ?? []) as Node[];
    const i = params.findIndex((p) => Node.isParameterDeclaration(p) && p.getNameNode().getText() === v.getText() && Node.isIdentifier(p.getNameNode()));
    const shadowed = i >= 0 && v.getSymbol()?.getDeclarations()[0] !== params[i];
    if (i >= 0 && !shadowed) return ((m.call as any).getArguments() as Node[])[i] ?? (params[i] as any).getInitializer?.() ?? m.value;
  }
  return m.value;
}
