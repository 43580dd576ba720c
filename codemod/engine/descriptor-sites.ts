// Do no harm for a send of a request descriptor (descriptors.ts): the descriptor's URL, method and
// body are rewritten where the builder writes them, so those edits serve this send alone only when
// this call is the builder's one use in the run and no code outside the run may call it; and an
// edit of the builder call's own arguments (`podAction(id, "stop")` made `"action"`) would change
// what the caller passes, not the descriptor. Either way the send is kept whole on v1, marked.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import type { Analysis } from "./state.ts";
import type { Problems } from "./rewrites/problems.ts";
import type { HttpCall } from "./transports/transport.ts";
import { descriptorMember, wholeDescriptor } from "./descriptors.ts";
import { builderCallers } from "./table-descriptors.ts";
import { sameCaseCalls } from "./switch-descriptors.ts";
import { returnedExpressions } from "./scope.ts";
import { unwrapExpression } from "./urls.ts";
import { exportedOutward } from "./outside-callers.ts";
import { functionName } from "./references.ts";
import type { LocatedUrl, Part } from "./urls.ts";
import type { Redirect } from "./v1-redirect.ts";
import { helperRedirect } from "./helper-redirect.ts";
import { optionsOf } from "./evaluate/value.ts";

/** The builder calls whose descriptors this send reads (`d.url`, `d.method`, `d.body`). */
function descriptorCalls(a: Analysis, http: HttpCall): { call: Node; builder: Node }[] {
  const roots = [http.urlNode, http.options, http.body?.prop, http.body?.node].filter((n): n is Node => !!n);
  const out = new Map<Node, Node>();
  for (const r of roots) {
    for (const n of [r, ...r.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)]) {
      const m = Node.isPropertyAccessExpression(n) ? descriptorMember(a, n) : undefined;
      if (m) out.set(m.call, m.builder);
    }
  }
  // Given whole (`axios(d)`, `fetch(d.url, d)`): the send reads every key the builder writes.
  for (const arg of (http.call as any).getArguments?.() ?? []) {
    const whole = wholeDescriptor(a, arg, []);
    if (whole) out.set(whole.call, whole.builder);
  }
  return [...out].map(([call, builder]) => ({ call, builder }));
}

/** Why the send cannot be rewritten through its descriptor (none: it can). */
export function descriptorProblems(a: Analysis, http: HttpCall, edits: Edit[]): Problems {
  const problems: Problems = [];
  for (const { call, builder } of descriptorCalls(a, http)) {
    const name = functionName(builder)?.getText() ?? "the builder";
    const where = `${builder.getSourceFile().getBaseName()}:${builder.getStartLineNumber()}`;
    // (A switch builder's calls reaching other cases build other descriptors: not this one's sends.)
    const callers = sameCaseCalls(builder, call, returnedExpressions(builder).map(unwrapExpression));
    if (!callers || callers.length !== 1 || exportedOutward(builder) && !importedInRun(builder)) {
      const others = callers ? `${callers.length - 1} other call${callers.length === 2 ? "" : "s"} in the run` : "code the codemod cannot list";
      const brief = callers ? `the descriptor is built by ${name} (${where}) for ${callers.length} sends` : `the descriptor is built by ${name} (${where}), which code outside the run may call`;
      problems.push({ reason: `the request descriptor is built by ${name} (${where}), which ${others} also use${callers?.length === 2 ? "s" : ""}: it cannot change for this send alone`, brief, advice: `rewrite ${name} to the v2 path, method and body once every send of its descriptors is v2 (docs/mapping.md)` });
      continue;
    }
    const file = call.getSourceFile().getFilePath();
    const args = (call as any).getArguments() as Node[];
    const inArgs = edits.find((e) => e.file === file && args.some((x) => e.start >= x.getStart() && e.end <= x.getEnd()));
    if (inArgs) problems.push({ reason: `${name} (${where}) builds the path from this call's argument ${JSON.stringify(inArgs.old)}, which v2 moves: the argument cannot be rewritten`, brief: `${name} (${where}) takes the path segment v2 moves from this call's argument ${JSON.stringify(inArgs.old)}`, advice: `have ${name} write the v2 path and body itself (docs/mapping.md)` });
  }
  return problems;
}

/** A builder the run's own modules import (exported for them, not only for code outside). */
function importedInRun(builder: Node): boolean {
  const callers = builderCallers(builder) ?? [];
  return callers.some((c) => c.getSourceFile() !== builder.getSourceFile());
}

/**
 * How a send kept on v1 keeps its base once the base flips: the builder gains a base parameter
 * defaulting to its base, and this builder call gives it the declared v1 base (helper-redirect.ts).
 */
export function descriptorRedirect(a: Analysis, http: HttpCall, url: LocatedUrl, parts: Part[]): Redirect | undefined {
  const m = http.urlNode ? descriptorMember(a, http.urlNode) : undefined;
  const first = parts[0];
  if (!m || !url.anchor?.node || first?.kind !== "base" || first.node !== url.anchor.node || !first.node.getFirstAncestor((n) => n === m.builder)) return undefined;
  // What the call passes whole for the builder's base slot, read by the evaluator: a known string there is its own base.
  const carriesBase = (arg: Node, key: string | undefined) => optionsOf(key === undefined ? a.evaluator.evaluate(arg) : a.evaluator.property(arg, a.evaluator.evaluate(arg), key)).some((o) => o.kind === "string");
  return helperRedirect(m.builder, first.node, url.anchor.value, m.call as Node & { getArguments(): Node[] }, undefined, carriesBase);
}
