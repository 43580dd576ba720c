// The table's harmless query values: each is a value v1 documents for its parameter, on a
// parameter v2 does not take, and backed by what the v2 document says of the operation. Values
// that are not harmless (the other way round, or undocumented) stay out.
import { describe, expect, it } from "vitest";
import { absentQueryDiffers, isHarmlessQuery, operationByKey, operations, renderMarkdown } from "../../mappings/index.ts";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";

const entries = operations.flatMap((op) => (op.query ?? []).filter((q) => q.harmless).map((q) => ({ op, q })));
const harmlessOf = (key: string, name: string) => operationByKey(key).query?.find((q) => q.v1 === name)?.harmless?.values ?? [];

/** What the v2 document says of the operation that makes each harmless value v2's own behaviour. */
const v2Says: Record<string, RegExp> = {
  "ListTemplates includePublicTemplates": /all templates owned by the authenticated user/,
  "ListTemplates includeRunpodTemplates": /all templates owned by the authenticated user/,
  "ListTemplates includeEndpointBoundTemplates": /all templates owned by the authenticated user/,
  "GetTemplate includePublicTemplates": /both templates you own and public catalog templates/,
  "GetTemplate includeRunpodTemplates": /both templates you own and public catalog templates/,
  "GetTemplate includeEndpointBoundTemplates": /both templates you own and public catalog templates/,
  "PodBilling grouping": /records are emitted per pod per bucket/,
  "EndpointBilling grouping": /records are emitted per serverless endpoint per bucket/,
};

describe("harmless query values in the table", () => {
  it("are given for include expansions (false), template lists and billing grouping", () => {
    expect(harmlessOf("ListPods", "includeMachine")).toEqual(["false"]);
    expect(harmlessOf("GetEndpoint", "includeWorkers")).toEqual(["false"]);
    expect(harmlessOf("ListTemplates", "includePublicTemplates")).toEqual(["false"]);
    expect(harmlessOf("PodBilling", "grouping")).toEqual(["podId"]);
    expect(harmlessOf("EndpointBilling", "grouping")).toEqual(["endpointId"]);
  });

  it("leave out what is not v2's behaviour, or not documented as such", () => {
    // v2 lists endpoint-bound templates among yours: false (v1's default) would drop them.
    expect(harmlessOf("ListTemplates", "includeEndpointBoundTemplates")).toEqual(["true"]);
    // v2 reads public templates by id: false (v1 refused them) is not v2's behaviour.
    expect(harmlessOf("GetTemplate", "includePublicTemplates")).toEqual(["true"]);
    // Whether GET /v2/pods lists serverless workers, the v2 document does not say.
    expect(harmlessOf("ListPods", "includeWorkers")).toEqual([]);
    expect(harmlessOf("ListPods", "endpointId")).toEqual([]);
    expect(harmlessOf("EndpointBilling", "gpuTypeId")).toEqual([]);
  });

  it("a parameter can go only when every value given is harmless", () => {
    const m = operationByKey("ListPods").query!.find((q) => q.v1 === "includeMachine");
    expect(isHarmlessQuery(m, ["false"])).toBe(true);
    expect(isHarmlessQuery(m, ["false", "false"])).toBe(true);
    expect(isHarmlessQuery(m, ["false", "true"])).toBe(false);
    expect(isHarmlessQuery(m, ["true"])).toBe(false);
    expect(isHarmlessQuery(m, ["FALSE"])).toBe(false);
    expect(isHarmlessQuery(m, [])).toBe(false);
    expect(isHarmlessQuery(undefined, ["false"])).toBe(false);
  });

  it("are rendered in docs/mapping.md", () => {
    const md = renderMarkdown();
    expect(md).toContain("| `GET /billing/pods` | `grouping` | — | emulate | `podId`: v2 pod billing emits one record per pod per bucket |");
    expect(md).toContain("| `GET /pods` | `includeWorkers` | — | drop-with-warning | — |");
  });
});

describe.skipIf(missingReference)(refSuite("harmless query values against the documents"), () => {
  const v1 = loadV1() as any;
  const v2 = loadV2() as any;

  it("each is a value v1 documents for the parameter, which v2 does not take", () => {
    expect(entries.length).toBeGreaterThan(10);
    for (const { op, q } of entries) {
      const label = `${op.key} ${q.v1}`;
      expect(q.decision, label).toBeDefined();
      const param = (v1.paths[op.v1.path][op.v1.method.toLowerCase()].parameters as any[]).find((p) => p.in === "query" && p.name === q.v1);
      expect(param, label).toBeDefined();
      const allowed = param.schema.type === "boolean" ? ["true", "false"] : param.schema.enum;
      for (const value of q.harmless!.values) expect(allowed, label).toContain(value);
      const v2Params = (v2.paths[op.v2!.path][op.v2!.method.toLowerCase()].parameters ?? []) as any[];
      expect(v2Params.some((p) => p.in === "query" && p.name === q.v1), label).toBe(false);
    }
  });

  it("each is v2's own behaviour as its document says (include expansions: v2 has none to ask for)", () => {
    for (const { op, q } of entries) {
      const doc = v2.paths[op.v2!.path][op.v2!.method.toLowerCase()];
      const said = v2Says[`${op.key} ${q.v1}`];
      if (said) expect(`${doc.summary} ${doc.description}`, `${op.key} ${q.v1}`).toMatch(said);
      else {
        expect([q.v1, q.harmless!.values], op.key).toEqual([expect.stringMatching(/^include/), ["false"]]);
        expect(((doc.parameters ?? []) as any[]).filter((p) => p.in === "query" && /^include/.test(p.name) && p.name !== "includeClusterPods"), op.key).toEqual([]);
      }
    }
  });
});

describe("v1 defaults of query parameters whose absence v2 answers otherwise", () => {
  const defaults = operations.flatMap((op) => (op.query ?? []).filter((q) => q.v1Default).map((q) => ({ op, q })));

  it("are given where leaving the parameter out changes the answer (endpoint-bound templates, pod billing grouping)", () => {
    const differs = (key: string, name: string) => absentQueryDiffers(operationByKey(key).query!.find((q) => q.v1 === name)!)?.value;
    expect(differs("ListTemplates", "includeEndpointBoundTemplates")).toBe("false");
    expect(differs("PodBilling", "grouping")).toBe("gpuTypeId");
    // Left out, these mean on v2 what they meant on v1.
    expect(differs("ListTemplates", "includePublicTemplates")).toBeUndefined();
    expect(differs("EndpointBilling", "grouping")).toBeUndefined();
    expect(defaults.length).toBeGreaterThanOrEqual(2);
  });

  describe.skipIf(missingReference)(refSuite("against the v1 document"), () => {
    it("each is the default v1 documents for the parameter, and not one of its harmless values", () => {
      const v1 = loadV1() as any;
      for (const { op, q } of defaults) {
        const param = (v1.paths[op.v1.path][op.v1.method.toLowerCase()].parameters as any[]).find((p) => p.in === "query" && p.name === q.v1);
        expect(String(param.schema.default), `${op.key} ${q.v1}`).toBe(q.v1Default!.value);
        expect(isHarmlessQuery(q, [q.v1Default!.value]), `${op.key} ${q.v1}`).toBe(false);
      }
    });
  });
});
