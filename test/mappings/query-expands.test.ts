// The table's `expands` (the v1 record field an include expansion fills) and `filterField` (the
// v1 record field a filter compares): each names a property of the operation's v1 record schema
// (or, for a filter, a field the lens gives), and every `include*` parameter that fills a field
// says which, so the codemod can drop it where nothing reads that field.
import { describe, expect, it } from "vitest";
import { lenses, operations, renderMarkdown } from "../../mappings/index.ts";
import { loadV1 } from "../../openapi/reference.ts";
import { refDescribe } from "../helpers/reference.ts";

const expansions = operations.flatMap((op) => (op.query ?? []).filter((q) => q.expands).map((q) => ({ op, q })));

describe("include expansions in the table", () => {
  it("name the field they fill", () => {
    const named = Object.fromEntries(expansions.map(({ op, q }) => [`${op.key} ${q.v1}`, q.expands]));
    expect(named).toMatchObject({
      "ListPods includeMachine": "machine",
      "GetPod includeMachine": "machine",
      "GetPod includeNetworkVolume": "networkVolume",
      "GetPod includeSavingsPlans": "savingsPlans",
      "ListEndpoints includeWorkers": "workers",
      "GetEndpoint includeTemplate": "template",
    });
    // ListPods' includeWorkers adds serverless workers to the list, not a field; template lists' include* add templates.
    expect(named["ListPods includeWorkers"]).toBeUndefined();
    // The v1 Pod schema names no field for a pod's template: which one a client reads is unknown, so the mark stays.
    expect(named["GetPod includeTemplate"]).toBeUndefined();
    // It is still an expansion (of a field the document does not name): dropped only where every read is a field the lens knows.
    const undeclared = operations.flatMap((op) => (op.query ?? []).filter((q) => q.expandsUndeclared).map((q) => `${op.key} ${q.v1}`));
    expect(undeclared).toEqual(["ListPods includeTemplate", "GetPod includeTemplate"]);
    expect(named["ListTemplates includePublicTemplates"]).toBeUndefined();
  });

  it("docs/mapping.md shows the field each fills and each filter compares", () => {
    const md = renderMarkdown();
    expect(md).toContain("| `GET /pods/{podId}` | `includeMachine` | — | drop-with-warning | `false`: v2 records carry no include expansions, which is what false asks for | fills `machine` |");
    expect(md).toContain("| `GET /pods` | `gpuTypeId` | — | emulate | — | `gpu.id` |");
  });
});

refDescribe("expanded and filtered fields against the v1 document", () => {
  const v1 = loadV1();
  it("each is a property of the operation's v1 record", () => {
    for (const op of operations) {
      if (op.response.kind !== "record" && op.response.kind !== "list") continue;
      const lens = lenses[op.response.lens]!;
      const schema = v1.components!.schemas[lens.v1Schema] as { properties?: Record<string, unknown> };
      // Fields the gateway derives for a filter (a pod's computeType) are the lens's own, named there.
      const known = [...Object.keys(schema.properties ?? {}), ...(lens.v1Undocumented ?? []).map((u) => u.v1)];
      for (const q of op.query ?? []) {
        const field = q.expands ?? q.filterField;
        if (!field || op.key === "PodBilling") continue; // billing's gpuTypeId is the gateway's attribution, not a record field
        expect(known, `${op.key} ${q.v1} → ${field}`).toContain(field.split(".")[0]);
      }
    }
  });
});
