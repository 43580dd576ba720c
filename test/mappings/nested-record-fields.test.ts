// Every member of every nested object of a v1 record (Pod.gpu, Pod.machine, …), walked from the v1
// document, is accounted for by the record lens: mapped to a v2 field that exists (a copy of a
// nested object covers only the members the v2 object has), filled by a converter or an emulation,
// or declared lost. A v1 object v2 keeps with fewer members (v2 pod `gpu` is {id, count}) fails here
// until the table says where the others come from.
import { expect, it } from "vitest";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { lenses, type BodyLens } from "../../mappings/index.ts";
import { componentSchema, schemaAt } from "../helpers/schema-walk.ts";
import { refDescribe } from "../helpers/reference.ts";

type Schema = Record<string, any>;

refDescribe("nested v1 record members are accounted for", () => {
  const v1 = loadV1();
  const v2 = loadV2();
  const deref = (s: Schema): Schema => {
    while (s && typeof s.$ref === "string") s = s.$ref.replace(/^#\//, "").split("/").reduce((n: any, k: string) => n?.[k], v1);
    return s ?? {};
  };
  /** Every member path below the top level (`gpu.displayName`, `savingsPlans.0.costPerHr`). */
  const memberPaths = (schema: Schema, prefix = ""): string[] => {
    const s = deref(schema);
    const object = s.type === "array" ? deref(s.items ?? {}) : s;
    const at = s.type === "array" ? `${prefix}0.` : prefix;
    return Object.entries(object.properties ?? {}).flatMap(([name, sub]) => [`${at}${name}`, ...memberPaths(sub as Schema, `${at}${name}.`)]);
  };
  const within = (path: string, whole: string) => path === whole || path.startsWith(`${whole}.`);

  /** Why the lens accounts for this v1 member, or undefined. */
  function accountedFor(lens: BodyLens, path: string): string | undefined {
    if ((lens.v1Lost ?? []).some((l) => within(path, l.v1))) return "lost";
    if ((lens.v1FromEmulation ?? []).some((e) => within(path, e.v1))) return "emulation";
    for (const f of lens.fields.filter((x) => x.only !== "toV2")) {
      for (const [i, from] of f.v1.entries()) {
        if (!within(path, from)) continue;
        if (f.converter) return `converter ${f.converter}`;
        // A copy covers the members below it only where the v2 object has them too.
        const rest = path.slice(from.length);
        const v2Root = componentSchema(v2, lens.v2Schema)!;
        if (schemaAt(v2, v2Root, `${f.v2[i]}${rest}`)) return "copy";
      }
    }
    return undefined;
  }

  // worker-record is a partial record by design (the endpointWorkers emulation's differences).
  const records = Object.values(lenses).filter((l) => l.name.endsWith("-record") && l.name !== "worker-record");

  it.each(records.map((l) => [l.name, l] as const))("%s: every nested v1 member is mapped, filled or declared lost", (_, lens) => {
    const root = componentSchema(v1, lens.v1Schema)!;
    const undocumented = new Set((lens.v1Undocumented ?? []).map((u) => u.v1));
    const missing: string[] = [];
    for (const path of memberPaths(root)) {
      const top = path.split(".")[0]!;
      if (!path.includes(".") || undocumented.has(top)) continue;
      // Below a member that is lost or filled as a whole, the members go with it.
      const parent = path.slice(0, path.lastIndexOf("."));
      const parentWhole = parent.includes(".") && accountedFor(lens, parent) !== undefined && accountedFor(lens, parent) !== "copy";
      if (parentWhole) continue;
      if (!accountedFor(lens, path)) missing.push(path);
    }
    expect(missing, `${lens.v1Schema}: nested v1 members neither mapped, filled nor declared lost`).toEqual([]);
  });

  it("the pod's gpu: id and count are copies, the type's name and prices come from the catalog, the rest is declared lost", () => {
    const pod = lenses["pod-record"]!;
    expect(accountedFor(pod, "gpu.id")).toBe("copy");
    expect(accountedFor(pod, "gpu.count")).toBe("copy");
    for (const f of ["gpu.displayName", "gpu.securePrice", "gpu.communityPrice", "machine.gpuDisplayName"]) expect(accountedFor(pod, f), f).toBe("converter gpuDetails");
    for (const f of ["oneWeekPrice", "oneMonthPrice", "threeMonthPrice", "sixMonthPrice", "secureSpotPrice", "communitySpotPrice"]) expect(accountedFor(pod, `gpu.${f}`), f).toBe("lost");
  });

  it("a whole-object copy of a v1 object v2 keeps with fewer members does not count as mapping them", () => {
    const copyOfGpu: BodyLens = { name: "x-record", v1Schema: "Pod", v2Schema: "Pod", fields: [{ v1: ["gpu"], v2: ["gpu"] }] };
    expect(accountedFor(copyOfGpu, "gpu.id")).toBe("copy");
    expect(accountedFor(copyOfGpu, "gpu.displayName")).toBeUndefined();
  });
});
