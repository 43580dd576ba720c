// Two plans whose edits overlap in a file (apply-edits.ts) hold only what wrote them, not the file:
// a call site whose rewrite or redirect overlaps another edit is kept whole on v1 with no base of
// its own (so the bases it uses stay v1 too, and the calls on them are marked by do no harm), and
// a base whose flip overlaps an edit no site owns stays v1. The analysis runs again with those
// held (index.ts); the file's other sites are independent text edits and migrate. An overlap no
// site or base owns (two marks, an error read) holds the whole file, as before.
import type { Node } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import type { Analysis, FileState, Frozen, Holds, Site } from "./state.ts";
import { todoAll } from "./todo-marks.ts";
import { byRisk, keepProblems } from "./mark-problems.ts";

export function newHolds(): Holds {
  return { sites: new Map(), bases: new Map() };
}

export function holdKey(n: Node): string {
  return `${n.getSourceFile().getFilePath()}:${n.getStart()}`;
}

/** Whether two edits touch the same text (an insertion strictly inside a replaced range counts; two insertions at one point do not). */
function overlap(x: Edit, y: Edit): boolean {
  if (x === y || x.file !== y.file || (x.start === y.start && x.end === y.end && x.text === y.text)) return false;
  return x.start < y.end && y.start < x.end;
}

/**
 * The sites (else the bases) whose edits take part in the overlaps `conflicts` of one file, as new
 * holds; undefined when an overlapping edit belongs to neither, or nothing new can be held.
 */
export function holdsFor(a: Analysis, file: FileState, conflicts: Edit[], written: Edit[], held: Holds, why: Frozen): Holds | undefined {
  const sites = new Map<Edit, Node[]>();
  const bases = new Map<Edit, Node>();
  const own = (e: Edit, n: Node) => sites.set(e, [...(sites.get(e) ?? []), n]);
  // A redirect is a kept call's (a call that migrates has one planned, unused).
  const redirect = (s: Site) => (!s.complete ? s.redirect : undefined);
  for (const site of a.sites) {
    const r = redirect(site);
    for (const e of [...site.edits, ...(r?.edits ?? []), ...(r?.derived?.edits ?? [])]) own(e, site.call);
    // A helper's new parameter serves every kept call of it: they are held together.
    for (const e of r?.shared?.edits ?? []) for (const other of a.sites) if (redirect(other)?.shared?.key === r!.shared!.key) own(e, other.call);
  }
  for (const base of a.bases.values()) for (const e of base.flip) bases.set(e, base.literal);
  const out = newHolds();
  for (const c of conflicts) {
    const involved = [c, ...written.filter((e) => overlap(e, c))];
    const owners = involved.flatMap((e) => sites.get(e) ?? []);
    // A site on either side: holding it takes its edits (and its redirect) away.
    if (owners.length) {
      for (const n of owners) if (!held.sites.has(holdKey(n))) out.sites.set(holdKey(n), why);
      continue;
    }
    const flips = involved.map((e) => bases.get(e));
    if (flips.some((b) => !b)) return undefined;
    for (const b of flips) if (!held.bases.has(holdKey(b!))) out.bases.set(holdKey(b!), why);
  }
  return out.sites.size || out.bases.size ? out : undefined;
}

/**
 * Sites held by an earlier round: kept whole on v1 with no redirect, marked with why. A call site
 * takes its hold where it is planned (call-site.ts: one mark); this catches any other kind.
 */
export function keepHeldSites(a: Analysis, held: Holds | undefined): void {
  if (!held?.sites.size) return;
  for (const site of a.sites) {
    const h = held.sites.get(holdKey(site.call));
    if (!h || !site.finding || site.finding.reason.includes(h.why)) continue;
    const f = site.finding;
    const kept = { reason: `kept on v1: ${h.why}`, advice: h.advice, risk: "elsewhere" as const };
    const marked = byRisk([...(site.cautions ?? []), kept]);
    f.category = f.category === "no-equivalent" ? "no-equivalent" : "review";
    f.reason = site.complete ? `kept on v1: ${h.why}` : `${f.reason}; kept on v1: ${h.why}`;
    f.advice = site.complete ? h.advice : `${f.advice}; ${h.advice}`;
    site.complete = false;
    site.whole = true;
    site.redirect = undefined;
    site.cautions = undefined;
    keepProblems(f, [kept]);
    todoAll(a, site.call, f.operation ?? "base", f.category, marked);
  }
}
