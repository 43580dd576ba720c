// A memo of callee roots per declaration. Receivers that are different nodes for one declaration
// (`this.client` in each method, every use of `const api = axios.create(…)`) read the same member
// values or initializer again at each call, and on a large project that was most of a rewrite.
// An entry is keyed by the declaration, the receiver's text (a helper's root carries it as its
// name) and the depth (the depth cut-offs then fall the same way). Only uncut results are kept:
// none of the cuts memo-cuts.ts counts moved during the computation, and no cycle check on the
// trail stopped it. The nodes the computation checked against the trail are kept with the entry
// and checked against the trail of a later reading, and the nodes it pushed onto the trail are
// pushed again, so a reading from the memo is the same as computing it there.
import type { Node } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import { cutCount, cutHere } from "../memo-cuts.ts";
import type { Root } from "./transport.ts";

interface Entry {
  root: Root | undefined;
  /** The nodes the computation pushed onto the trail, in order. */
  pushed: Node[];
  /** The nodes it checked against the trail (none was there). */
  checked: Node[];
}

interface Memo {
  entries: Map<Node, Map<string, Entry>>;
  /** The nodes checked against a trail while a memoised computation runs (an entry keeps its slice). */
  checked: Node[];
  /** Memoised computations under way: with none, a check concerns no entry and is not kept. */
  active: number;
}

const memos = new WeakMap<Analysis, Memo>();

function memoOf(a: Analysis): Memo {
  let m = memos.get(a);
  if (!m) memos.set(a, (m = { entries: new Map(), checked: [], active: 0 }));
  return m;
}

/** Whether `node` is on `trail` (a cycle check of a root's reading): counted for the memo. */
export function onTrail(a: Analysis, trail: Node[], node: Node): boolean {
  const m = memoOf(a);
  if (m.active) m.checked.push(node);
  if (!trail.includes(node)) return false;
  cutHere(a);
  return true;
}

/** The root `compute` reads for `decl` (as `text`, at `depth`), from the memo when an uncut reading is kept. */
export function declarationRoot(a: Analysis, decl: Node, text: string, depth: number, trail: Node[], compute: () => Root | undefined): Root | undefined {
  // Inside a narrowed reading the evaluator's values hold for that branch alone.
  if (a.evaluator.narrowed) return compute();
  const m = memoOf(a);
  const key = `${depth} ${text}`;
  const known = m.entries.get(decl)?.get(key);
  if (known && !known.checked.some((n) => trail.includes(n))) {
    if (m.active) m.checked.push(...known.checked);
    trail.push(...known.pushed);
    return known.root && { ...known.root };
  }
  const cuts = cutCount(a);
  const from = trail.length;
  const checkedFrom = m.checked.length;
  m.active++;
  let root: Root | undefined;
  try {
    root = compute();
  } finally {
    m.active--;
  }
  if (!known && cutCount(a) === cuts) {
    const byText = m.entries.get(decl) ?? m.entries.set(decl, new Map()).get(decl)!;
    byText.set(key, { root: root && { ...root }, pushed: trail.slice(from), checked: m.checked.slice(checkedFrom) });
  }
  // The outermost computation is done: no entry needs the checks made so far.
  if (!m.active) m.checked.length = 0;
  return root;
}
