// The two runs' operations, side by side: the same operations in the same order, each answered
// alike. Where they part ways first is the divergence, reported with the call sites on both sides
// and the last operation both made alike (a client that misreads an answer, e.g. a list it no
// longer unwraps, goes wrong right after it).
import { align } from "./align.ts";
import type { Normaliser } from "./normalise.ts";
import { diffValues } from "./records.ts";
import type { Difference, StepView } from "./report-types.ts";
import { formatSite, siteOf } from "./sites.ts";
import type { Step } from "./steps.ts";

export type Side = { steps: Step[]; normaliser: Normaliser; tree: string };

export type StepComparison = {
  divergence: Difference | null;
  items: Difference[];
  /** Body differences, by the steps they are about: the caller decides whether records make them count. */
  bodies: { item: Difference; before: Step; after: Step }[];
};

/** How many missing operations are listed one by one once the after run has stopped making calls. */
const TAIL_LISTED = 5;

export function view(step: Step, index: number, side: Side): StepView {
  return {
    index: index + 1,
    operation: step.label,
    method: step.method,
    path: side.normaliser.text(step.path),
    status: step.status,
    api: step.api,
    ...(step.call ? { via: step.call.via } : {}),
    site: siteOf(step.call?.frames, side.tree),
  };
}

const describe = (v: StepView) => `#${v.index} ${v.operation} ${v.method} ${v.path} → ${v.status}${v.api === "v1" ? " (v1, via the gateway)" : ""}, at ${formatSite(v.site)}`;

export function compareSteps(before: Side, after: Side): StepComparison {
  const pairs = align(before.steps.map((s) => s.key), after.steps.map((s) => s.key));
  const items: Difference[] = [];
  const bodies: StepComparison["bodies"] = [];
  let divergence: Difference | null = null;
  let lastAlike: { b: number; a: number } | null = null;
  const diverge = (message: string, b?: number, a?: number) => {
    if (divergence) return;
    const last = lastAlike ? view(after.steps[lastAlike.a]!, lastAlike.a, after) : null;
    divergence = {
      kind: "divergence",
      severity: "difference",
      message: (last ? `The runs part ways after ${last.operation} (#${last.index}, at ${formatSite(last.site)}): ` : "The runs part ways at their first operation: ") + message,
      ...(b !== undefined ? { before: view(before.steps[b]!, b, before) } : {}),
      ...(a !== undefined ? { after: view(after.steps[a]!, a, after) } : {}),
      details: [
        ...(last ? [`last operation both runs made alike: ${describe(last)}`] : []),
        ...(b !== undefined ? [`before: ${describe(view(before.steps[b]!, b, before))}`] : ["before: no further operation"]),
        ...(a !== undefined ? [`after:  ${describe(view(after.steps[a]!, a, after))}`] : ["after:  no further operation"]),
      ],
    };
  };

  let k = 0;
  while (k < pairs.length) {
    const p = pairs[k]!;
    if (p.before !== undefined && p.after !== undefined) {
      const b = before.steps[p.before]!;
      const a = after.steps[p.after]!;
      const vb = view(b, p.before, before);
      const va = view(a, p.after, after);
      if (b.status !== a.status) {
        items.push({ kind: "status", severity: "difference", message: `${b.label} was answered ${b.status} before and ${a.status} after`, before: vb, after: va, details: answerDetails(b, a, before, after) });
        diverge(`${b.label} was answered ${b.status} before and ${a.status} after`, p.before, p.after);
      } else {
        const fields = diffValues(before.normaliser.value(b.body), after.normaliser.value(a.body), "");
        if (fields.length) {
          const item: Difference = { kind: "body", severity: "note", message: `${b.label} was sent a different body (answered ${b.status} in both runs)`, before: vb, after: va, details: fields };
          items.push(item);
          bodies.push({ item, before: b, after: a });
        }
        if (!divergence) lastAlike = { b: p.before, a: p.after };
      }
      k++;
      continue;
    }
    // A gap: operations only one run made, up to the next pair.
    const onlyBefore: number[] = [];
    const onlyAfter: number[] = [];
    while (k < pairs.length && (pairs[k]!.before === undefined || pairs[k]!.after === undefined)) {
      const q = pairs[k++]!;
      if (q.before !== undefined) onlyBefore.push(q.before);
      else onlyAfter.push(q.after!);
    }
    // A gap at the end: the after run made its last operation, the before run went on.
    const afterStopped = k >= pairs.length;
    const firstBefore = onlyBefore[0];
    const firstAfter = onlyAfter[0];
    const gap = gapItems(onlyBefore, onlyAfter, afterStopped, before, after);
    // Reads one run made and the other did not change nothing: only a gap with a difference diverges.
    if (gap.some((i) => i.severity === "difference")) diverge(gapMessage(firstBefore, firstAfter, before, after), firstBefore, firstAfter);
    items.push(...gap);
  }
  return { divergence, items, bodies };
}

/** The operations of a gap: made in place of another ("changed"), missing after, or extra after. */
function gapItems(onlyBefore: number[], onlyAfter: number[], afterStopped: boolean, before: Side, after: Side): Difference[] {
  const items: Difference[] = [];
  // One operation made in place of another: first those on the same route (a pod action without
  // its action), then, in order, whatever is left on both sides (a read of the wrong resource).
  const swapped: [number, number][] = [];
  for (const b of [...onlyBefore]) {
    const i = onlyAfter.findIndex((a) => after.steps[a]!.method === before.steps[b]!.method && after.steps[a]!.route === before.steps[b]!.route);
    if (i < 0) continue;
    swapped.push([b, onlyAfter.splice(i, 1)[0]!]);
    onlyBefore.splice(onlyBefore.indexOf(b), 1);
  }
  while (onlyBefore.length && onlyAfter.length) swapped.push([onlyBefore.shift()!, onlyAfter.shift()!]);
  for (const [b, a] of swapped.sort((x, y) => x[0] - y[0])) {
    const sb = before.steps[b]!;
    const sa = after.steps[a]!;
    items.push({ kind: "changed", severity: "difference", message: `${sb.label} (answered ${sb.status}) became ${sa.label} (answered ${sa.status})`, before: view(sb, b, before), after: view(sa, a, after), details: [...diffValues(before.normaliser.value(sb.body), after.normaliser.value(sa.body), "body"), ...answerDetails(sb, sa, before, after)] });
  }
  // Once the after run has stopped making operations, the first few it never made are listed one
  // by one and the rest summed up.
  const listed = afterStopped ? onlyBefore.slice(0, TAIL_LISTED) : onlyBefore;
  for (const b of listed) {
    const s = before.steps[b]!;
    items.push({ kind: "missing", severity: s.write ? "difference" : "note", message: `${s.label} was made before${s.write ? "" : " (a read)"} and not after`, before: view(s, b, before) });
  }
  if (onlyBefore.length > listed.length) {
    items.push({ kind: "missing", severity: "difference", message: `the after run made no further operation; before went on with ${onlyBefore.length - listed.length} more: ${summarise(onlyBefore.slice(listed.length).map((b) => before.steps[b]!.label))}` });
  }
  for (const a of onlyAfter) {
    const s = after.steps[a]!;
    items.push({ kind: "extra", severity: s.write ? "difference" : "note", message: `${s.label} was made after${s.write ? "" : " (a read)"} and not before`, after: view(s, a, after) });
  }
  return items;
}

function gapMessage(b: number | undefined, a: number | undefined, before: Side, after: Side): string {
  const lb = b !== undefined ? before.steps[b]!.label : null;
  const la = a !== undefined ? after.steps[a]!.label : null;
  if (lb && la) return `before made ${lb}, after made ${la}`;
  if (lb) return `before made ${lb}, after made no further operation`;
  return `after made ${la}, which before never made`;
}

function answerDetails(b: Step, a: Step, before: Side, after: Side): string[] {
  const out: string[] = [];
  const problem = (s: Step) => (s.answer && typeof s.answer === "object" ? (s.answer as { detail?: unknown; errors?: unknown }) : null);
  const pb = problem(b);
  const pa = problem(a);
  if (b.status >= 400 && pb?.detail) out.push(`before's answer: ${before.normaliser.text(String(pb.detail))}${Array.isArray(pb.errors) ? `: ${pb.errors.slice(0, 4).join("; ")}` : ""}`);
  if (a.status >= 400 && pa?.detail) out.push(`after's answer: ${after.normaliser.text(String(pa.detail))}${Array.isArray(pa.errors) ? `: ${pa.errors.slice(0, 4).join("; ")}` : ""}`);
  return out;
}

function summarise(labels: string[]): string {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].map(([l, n]) => (n > 1 ? `${l} ×${n}` : l)).join(", ");
}
