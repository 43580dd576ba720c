// A flipped base that callers the run cannot see can set (`prefixUrl: options.apiUrl ?? BASE` in a
// package's exported factory: its users pass `apiUrl`). A user who passes the v1 base, or a
// gateway's /v1, would send the calls now in v2 shape to v1. Where the option is a string, it goes
// through `runpodV2Base(…)`, declared once in its file, which gives the v2 counterpart of a v1 base
// (the public one to the v2 base, another host's /v1 to its /v2: the gateway passes /v2 through)
// and leaves any other base as it is; the base's mark still says so.
import { Node } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import type { Analysis, Site } from "./state.ts";
import { resolveIdentifier } from "./scope.ts";
import { exportedOutward } from "./outside-callers.ts";
import { replaceNode } from "./text-edit.ts";
import { declarationEdit, V2_DERIVE_NAME } from "./v1-redirect.ts";
import { isTypeScriptFile } from "./nodes.ts";

/** The edits that move each unseen caller's base to its v2 counterpart; undefined unless every setter can be. */
export function callerSetBaseEdits(a: Analysis, setters: Node[]): Edit[] | undefined {
  if (!setters.length || !setters.every((s) => setByUnseenCallers(s) && stringOption(s))) return undefined;
  const edits: Edit[] = [];
  // One declaration per file, however many bases there go through it.
  const files = declaredIn.get(a) ?? declaredIn.set(a, new Set()).get(a)!;
  for (const s of setters) {
    edits.push(replaceNode(s, `${V2_DERIVE_NAME}(${s.getText()})`));
    const sf = s.getSourceFile();
    if (files.has(sf)) continue;
    files.add(sf);
    const decl = declarationEdit(sf, V2_DERIVE_NAME, isTypeScriptFile(sf.getFilePath()));
    if (decl) edits.push(decl);
  }
  return edits;
}

const declaredIn = new WeakMap<Analysis, Set<Node>>();

/** `options.apiUrl` where `options` is a parameter of a function the module exports (its callers may be outside the run). */
function setByUnseenCallers(n: Node): boolean {
  let root: Node = n;
  while (Node.isPropertyAccessExpression(root)) root = root.getExpression();
  const b = Node.isIdentifier(root) ? resolveIdentifier(root) : undefined;
  return b?.kind === "param" && exportedOutward(b.fn);
}

/** A string or nothing (what `runpodV2Base` takes), as the compiler sees it; anything else is left alone. */
function stringOption(n: Node): boolean {
  const t = n.getType();
  const parts = t.isUnion() ? t.getUnionTypes() : [t];
  return parts.every((p) => p.isString() || p.isStringLiteral() || p.isUndefined());
}

/** What callers can set a site's base to, when it is not only the environment (`opts.baseUrl`): a per-request base would replace it. */
function callerOverride(a: Analysis, site: Site): string | undefined {
  for (const d of site.deps) {
    const set = a.bases.get(d)?.override?.split(", ").filter((o) => !o.startsWith("the environment variable"));
    if (set?.length) return set.join(", ");
  }
  return undefined;
}

/**
 * A base given per request replaces the client's own, which its callers can set (`prefixUrl:
 * opts.baseUrl ?? BASE`): the kept call would leave the base they chose (a proxy, a gateway's /v1).
 * Where the library derives the call's base from the client's own (ky's `extend`), the call takes
 * that redirect instead (the site's redirect becomes it); otherwise null, the reason on the site.
 * Undefined where nothing of this applies.
 */
export function callerSetRedirect(a: Analysis, site: Site): Site["redirect"] | null | undefined {
  const r = site.redirect;
  const setBy = r?.perRequest ? callerOverride(a, site) : undefined;
  if (!setBy) return undefined;
  if (r!.callerSet) return (site.redirect = { edits: r!.callerSet.edits, names: r!.callerSet.names });
  site.noRedirect ??= `a base given per request would replace the client's, which its callers can set (${setBy})`;
  return null;
}
