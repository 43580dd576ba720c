// Rewrite step: a list the gateway regroups for v1 whatever the query (network-volume billing:
// v1 one record per bucket, v2 one per volume per bucket, the gateway sums them) has other members
// in v2, so its length and its per-record reads change meaning. The direct unwrap cannot say so:
// the site is marked with the emulation's own summary. (Regroupings a query parameter decides,
// pod billing's `grouping`, are settled by the query check.)
import type { OperationMapping } from "../../../mappings/index.ts";
import { emulations } from "../../../mappings/data/emulations.ts";
import { emulationSides } from "../../adapter/emulation-sides.ts";
import type { Plan } from "../state.ts";

export function regroupedList(plan: Plan, op: OperationMapping): void {
  if (op.response.kind !== "list" || plan.site.keepsV1Record) return;
  for (const name of op.emulations ?? []) {
    const sides = emulationSides[name] ?? ["list"];
    if (!sides.includes("list") || sides.includes("query")) continue;
    const spec = emulations.find((e) => e.name === name);
    plan.problems.push({
      risk: "silent",
      reason: `v2's list has other records than v1's: ${spec?.summary ?? name}`,
      advice: "regroup the v2 records as v1 listed them where the code counts or reads them per record (docs/mapping.md), or keep this call on the gateway",
      brief: `v2's list has other records than v1's (the gateway's ${name})`,
    });
  }
}
