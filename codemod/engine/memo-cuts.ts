// Cycle cuts, counted, so that a memo above them keeps only results a later reading would repeat.
// A helper's or wrapper's signature and a base are null placeholders in their caches while being
// computed (that breaks a cycle); a reading of one meanwhile is cut by that cycle. The evaluator
// counts its own cuts (a value depending on itself, too deep). A memo (transports/declaration-roots.ts)
// compares the count before and after a computation and keeps the result only when it did not move.
import type { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";

type Kind = "helper" | "wrapper" | "base";
interface Cuts {
  open: Record<Kind, Set<Node>>;
  /** Placeholders read while pending, and cycle checks that stopped a reading, so far. */
  count: number;
}

const cutsOf = new WeakMap<Analysis, Cuts>();

function cuts(a: Analysis): Cuts {
  let c = cutsOf.get(a);
  if (!c) cutsOf.set(a, (c = { open: { helper: new Set(), wrapper: new Set(), base: new Set() }, count: 0 }));
  return c;
}

/** Runs `compute` for the entry `key` of a memo of `kind`, marked pending meanwhile. */
export function computing<T>(a: Analysis, kind: Kind, key: Node, compute: () => T): T {
  const open = cuts(a).open[kind];
  open.add(key);
  try {
    return compute();
  } finally {
    open.delete(key);
  }
}

/** A memo of `kind` answered `key` from its cache: a cut when the entry is still pending. */
export function readCached(a: Analysis, kind: Kind, key: Node): void {
  const c = cutsOf.get(a);
  if (c?.open[kind].has(key)) c.count++;
}

/** A cycle check (a node already on the trail) stopped a reading. */
export function cutHere(a: Analysis): void {
  cuts(a).count++;
}

/** Every cut so far, the evaluator's included: a computation during which it moved was cut. */
export function cutCount(a: Analysis): number {
  return cuts(a).count + a.evaluator.cuts;
}
