// Whether a `method` in the options a caller hands a request helper reaches the transport over the
// helper's own method, followed by value through the helper and the helpers under it:
// `request({ method, path, ...opts })` lets the caller's method win, `{ ...opts, method, path }` does
// not, and options the helper never hands on cannot set it.
import { Node, SyntaxKind, type CallExpression } from "../ts-morph.ts";
import type { HelperSignature } from "../types.ts";
import type { Analysis } from "./state.ts";
import { readCall } from "./call-reader.ts";
import { bind, objectLiteral } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { restOfParam } from "./rest-of-param.ts";

/** A caller's method wins (`at`: where the helper lets it, the spread or the options handed on) or cannot; undefined: not followed. */
export type OptionsMethod = { reaches: boolean; at?: Node };

const MAX_DEPTH = 6;

/** The spread of `opts` in an object literal and whether a `key` written after it replaces what it carries. */
function spreadOf(a: Analysis, literal: Node, fn: Node, index: number, key: string): OptionsMethod | undefined {
  if (!Node.isObjectLiteralExpression(literal)) return undefined;
  const props = literal.getProperties();
  const written = (p: Node) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) && p.getName() === key;
  const last = props.map((p, i) => (written(p) ? i : -1)).reduce((x, y) => Math.max(x, y), -1);
  // `{ method: options.method.toUpperCase() }`: the literal's own method is the caller's.
  if (last >= 0 && readsParamKey(a, props[last]!, fn, index, key)) return { reaches: true, at: props[last] };
  const at = props.findIndex((p) => Node.isSpreadAssignment(p) && (isParam(a, p.getExpression(), fn, index) || restCarries(a, p.getExpression(), fn, index, key)));
  if (at < 0) return undefined;
  return at < last ? { reaches: false } : { reaches: true, at: props[at] };
}

/** A method property whose value reads the parameter (`opts.method`, a destructured `{ method = "GET" }`): the caller's. */
function readsParamKey(a: Analysis, property: Node, fn: Node, index: number, _key: string): boolean {
  const value = Node.isPropertyAssignment(property) ? property.getInitializer() : Node.isShorthandPropertyAssignment(property) ? property.getNameNode() : undefined;
  if (!value) return false;
  const ids = Node.isIdentifier(value) ? [value] : value.getDescendantsOfKind(SyntaxKind.Identifier);
  return ids.some((id) => {
    const b = bind(a, id);
    return b?.kind === "param" && b.fn === fn && b.index === index;
  });
}

/** The rest of the options parameter (`const { apiKey, ...init } = opts`) still holding `key`. */
function restCarries(a: Analysis, node: Node, fn: Node, index: number, key: string): boolean {
  const rest = restOfParam(a, fn, node);
  return !!rest && rest.param.index === index && !rest.taken.includes(key);
}

function isParam(a: Analysis, node: Node, fn: Node, index: number): boolean {
  const u = unwrapExpression(node);
  if (!Node.isIdentifier(u)) return false;
  const b = bind(a, u);
  return b?.kind === "param" && b.fn === fn && b.index === index && b.path.length === 0;
}

/**
 * Whether a method in the options given as parameter `index` of the helper `sig` reaches its transport.
 * Followed through the call the helper makes: the options handed on whole or spread into an options
 * literal of an inner helper (then that helper's own answer), or of fetch.
 */
export function optionsMethodReach(a: Analysis, sig: HelperSignature, index: number, depth = 0): OptionsMethod | undefined {
  if (depth > MAX_DEPTH || !sig.transport) return undefined;
  // The options are where the helper reads its method (`request({ path, method })`).
  if (sig.methodKey && sig.optionsIndex === index) return { reaches: true };
  const fn = sig.fn as Node;
  const call = sig.transport as CallExpression;
  const http = readCall(a, call);
  if (!http) return undefined;
  if (http.lib === "helper" && http.helper) {
    const inner = http.helper;
    const args = call.getArguments();
    for (let j = 0; j < args.length; j++) {
      const arg = args[j]!;
      if (isParam(a, arg, fn, index)) {
        const deeper = optionsMethodReach(a, inner, j, depth + 1);
        return deeper && (deeper.reaches ? { reaches: true, at: deeper.at ?? arg } : deeper);
      }
      const literal = objectLiteral(a, arg);
      const spread = literal && spreadOf(a, literal, fn, index, inner.methodKey ?? "method");
      if (!spread) continue;
      if (!spread.reaches) return spread;
      // Spread into the inner helper's options: the caller's method is there as much as the literal's own.
      if (inner.methodKey && inner.optionsIndex === j) return spread;
      const deeper = optionsMethodReach(a, inner, j, depth + 1);
      return deeper && (deeper.reaches ? spread : deeper);
    }
    return undefined;
  }
  if (http.lib === "fetch" && http.options) {
    if (isParam(a, http.options, fn, index) || restCarries(a, http.options, fn, index, "method")) return { reaches: true, at: http.options };
    const literal = objectLiteral(a, http.options);
    return literal ? spreadOf(a, literal, fn, index, "method") : undefined;
  }
  return undefined;
}
