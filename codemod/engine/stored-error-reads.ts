// A call's error body stored on what it throws (stored-error-bodies.ts) is read where the call's
// error is caught, down the fields it was stored under: `catch (e) { e.body?.message }` for
// `throw new ApiError(res.status, body)`, in the call's own function, its callers (any module), a
// `.catch` handler. A throw caught in its own function is read there too. Where the holder goes out
// of sight, the caller hears why (it marks the call that loses it).
import type { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { Hop } from "./handed-on.ts";
import { catchersOf, followPath } from "./caught-errors.ts";
import { followHolder, type Stored } from "./stored-error-bodies.ts";

let active = 0;

/** Hands `read` each place the stored body is read back: a caught error's field, a returned result's. */
export function storedReads(a: Analysis, call: Node, s: Stored, read: (n: Node, hops: Hop[]) => void, lost: (node: Node, why: string) => void, errorSide: (n: Node) => boolean): void {
  if (s.kept) return lost(s.holder, `this.${s.field}, kept on the object for later`);
  // A body stored again where it is read back (`{ cause: e.body }`) is followed a few times, not forever.
  if (active > 3) return;
  active++;
  try {
    followHolder(a, s.holder, [s.field], s.hops, {
      thrown: (t) => {
        const holders = new Set([...catchersOf(a, t.thrown, false), ...catchersOf(a, call, true)]);
        for (const h of holders) followPath(a, h, t.path, (n) => read(n, t.hops));
      },
      body: read,
      lost,
      returns: errorSide(s.holder),
    });
  } finally {
    active--;
  }
}
