// A call's error body stored on what it throws (stored-error-bodies.ts) is read where the call's
// error is caught, down the fields it was stored under: `catch (e) { e.body?.message }` for
// `throw new ApiError(res.status, body)`, in the call's own function, its callers (any module), a
// `.catch` handler. A throw caught in its own function is read there too. A field of the project's
// error class is also read wherever the code reads it on a value of that class (`err.body` in an
// error middleware typed `ApiError`), however the instance got there. Where the holder goes out
// of sight, the caller hears why (it marks the call that loses it).
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { handedTo, type Hop } from "./handed-on.ts";
import { catchersOf, followPath } from "./caught-errors.ts";
import { followHolder, type Stored } from "./stored-error-bodies.ts";
import { constructorOf } from "./record-callees.ts";
import { references } from "./references.ts";

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
        // The caught error handed to a callee that cannot be read (`catch (e) { onError(e) }`) takes the body with it.
        const handed = (arg: Node) => {
          const to = handedTo(a, arg);
          if (to?.kind === "unfollowed") lost(to.call, `${to.why}, inside the caught error`);
        };
        for (const h of holders) followPath(a, h, t.path, (n) => read(n, t.hops), handed);
      },
      body: read,
      lost,
      returns: errorSide(s.holder),
    });
    for (const r of classFieldReads(a, s)) read(r, s.hops);
  } finally {
    active--;
  }
}

/** The reads of the class field a `new` expression stores the body in (a parameter property, or a field its constructor sets), outside the constructor. */
function classFieldReads(a: Analysis, s: Stored): Node[] {
  if (!Node.isNewExpression(s.holder)) return [];
  // The class whose constructor stores it (the class made, or the one it inherits that constructor from).
  const ctor = constructorOf(a, s.holder.getExpression());
  const cls = ctor?.getParent();
  const param = ctor?.getParameters().find((p) => p.isParameterProperty() && p.getName() === s.field);
  const decl = param?.getNameNode() ?? cls?.getProperty(s.field)?.getNameNode();
  if (!decl) return [];
  return references(decl).filter((r) => Node.isPropertyAccessExpression(r) && a.files.has(r.getSourceFile().getFilePath()) && !(ctor && r.getFirstAncestor((x) => x === ctor)));
}
