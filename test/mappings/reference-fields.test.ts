// Every field, parameter and schema the table names exists in the published documents.
import { describe, expect, it } from "vitest";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { createV2Validator } from "../../openapi/validator.ts";
import { emulationNamed, operations, lenses } from "../../mappings/index.ts";
import { componentSchema, schemaAt } from "../helpers/schema-walk.ts";
import { refDescribe } from "../helpers/reference.ts";

refDescribe("mapping table names only real fields", () => {
  const v1 = loadV1();
  const v2 = loadV2();

  describe.each(Object.values(lenses).map((l) => [l.name, l] as const))("lens %s", (_, lens) => {
    const v1Root = componentSchema(v1, lens.v1Schema);
    const v2Root = componentSchema(v2, lens.v2Schema);

    it("names schemas both documents define", () => {
      expect(v1Root, `v1 schema ${lens.v1Schema}`).toBeDefined();
      expect(v2Root, `v2 schema ${lens.v2Schema}`).toBeDefined();
    });

    it("every v1 field path exists in the v1 schema", () => {
      const paths = [...lens.fields.flatMap((f) => f.v1), ...(lens.unmapped ?? []).map((u) => u.v1), ...Object.keys(lens.v1Defaults ?? {}), ...(lens.v1Lost ?? []).map((l) => l.v1)];
      const undocumented = new Set((lens.v1Undocumented ?? []).map((u) => u.v1));
      for (const p of paths) {
        if (undocumented.has(p)) continue;
        // `networkVolume.id` style paths: the v1 record declares the object without its inner fields.
        const head = p.split(".")[0]!;
        const found = schemaAt(v1, v1Root!, p) ?? (schemaAt(v1, v1Root!, head)?.type === "object" ? {} : undefined);
        expect(found, `v1 ${lens.v1Schema}.${p}`).toBeDefined();
      }
    });

    it("every v2 field path exists in the v2 schema", () => {
      const paths = [...lens.fields.flatMap((f) => f.v2), ...Object.keys(lens.v2Defaults ?? {}), ...(lens.v2Only ?? []).map((o) => o.v2)];
      for (const p of paths) expect(schemaAt(v2, v2Root!, p), `v2 ${lens.v2Schema}.${p}`).toBeDefined();
    });
  });

  it("operations name request lenses whose schemas are the documented request bodies", () => {
    for (const op of operations) {
      if (!op.request?.lens) continue;
      const lens = lenses[op.request.lens]!;
      const v1Body = v1.paths[op.v1.path]![op.v1.method.toLowerCase()].requestBody.content["application/json"].schema.$ref;
      expect(v1Body, op.key).toBe(`#/components/schemas/${lens.v1Schema}`);
      const v2Body = v2.paths[op.v2!.path]![op.v2!.method.toLowerCase()].requestBody.content["application/json"].schema.$ref;
      expect(v2Body, op.key).toBe(`#/components/schemas/${lens.v2Schema}`);
    }
  });

  it("path parameters exist on both sides", () => {
    for (const op of operations) {
      for (const [from, to] of Object.entries(op.pathParams ?? {})) {
        expect(op.v1.path, op.key).toContain(`{${from}}`);
        if (op.v2) expect(op.v2.path, op.key).toContain(`{${to}}`);
      }
      const v1Params = [...op.v1.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      for (const p of v1Params) expect(op.pathParams?.[p], `${op.key} maps {${p}}`).toBeDefined();
    }
  });

  it("query parameters: v1 names are documented on the v1 operation, v2 names on the v2 operation", () => {
    const paramNames = (doc: typeof v1, path: string, method: string) =>
      (doc.paths[path]![method.toLowerCase()].parameters ?? []).map((p: any) => {
        if (p.$ref) return p.$ref.split("/").pop() && (doc.components!.parameters[p.$ref.split("/").pop()].name as string);
        return p.name as string;
      });
    for (const op of operations) {
      const v1Names = paramNames(v1, op.v1.path, op.v1.method);
      for (const q of op.query ?? []) {
        expect(v1Names, `${op.key} v1 ?${q.v1}`).toContain(q.v1);
        if (q.v2) expect(paramNames(v2, op.v2!.path, op.v2!.method), `${op.key} v2 ?${q.v2}`).toContain(q.v2);
        if (!q.v2) expect(q.decision, `${op.key} ?${q.v1} needs a decision`).toBeDefined();
      }
      // Every documented v1 query parameter is accounted for.
      const queryParams = (v1.paths[op.v1.path]![op.v1.method.toLowerCase()].parameters ?? []).filter((p: any) => p.in === "query");
      for (const p of queryParams) expect((op.query ?? []).map((q) => q.v1), `${op.key} ?${p.name}`).toContain(p.name);
    }
  });

  it("every documented v1 request field is mapped or has a decision", () => {
    for (const lens of Object.values(lenses)) {
      const root = componentSchema(v1, lens.v1Schema)!;
      if (!lens.name.endsWith("-create") && !lens.name.endsWith("-update")) continue;
      const known = new Set([...lens.fields.flatMap((f) => f.v1.map((p) => p.split(".")[0]!)), ...(lens.unmapped ?? []).map((u) => u.v1)]);
      for (const name of Object.keys(root.properties ?? {})) expect(known.has(name), `${lens.v1Schema}.${name}`).toBe(true);
    }
  });

  it("fixed bodies (lifecycle actions) validate against the v2 request schema", () => {
    const validator = createV2Validator(v2);
    for (const op of operations.filter((o) => o.request?.fixedBody)) {
      expect(validator.validateRequestBody(op.v2!.method, op.v2!.path, op.request!.fixedBody), op.key).toEqual({ ok: true });
    }
  });
});

refDescribe("what v2 cannot keep is declared", () => {
  const v1 = loadV1();
  // worker-record is a partial record by design (see the endpointWorkers emulation's differences).
  const records = Object.values(lenses).filter((l) => l.name.endsWith("-record") && l.name !== "worker-record");

  it.each(records.map((l) => [l.name, l] as const))("%s: every v1 record field is mapped, filled by an emulation, or declared lost", (_, lens) => {
    const fromEmulation = new Set((lens.v1FromEmulation ?? []).map((e) => e.v1));
    const lost = new Set((lens.v1Lost ?? []).map((l) => l.v1));
    const mapped = new Set(lens.fields.filter((f) => f.only !== "toV2").flatMap((f) => f.v1.map((p) => p.split(".")[0]!)));
    for (const name of Object.keys(componentSchema(v1, lens.v1Schema)!.properties ?? {})) {
      expect(mapped.has(name) || fromEmulation.has(name) || lost.has(name), `${lens.v1Schema}.${name}`).toBe(true);
      // Mapped and lost at once only where it is lost for some records (lostFor): filled for the others.
      const partly = (lens.v1Lost ?? []).some((l) => l.v1 === name && l.lostFor);
      expect(mapped.has(name) && lost.has(name) && !partly, `${lens.v1Schema}.${name} both mapped and lost`).toBe(false);
    }
  });

  it("emulations that fill record fields exist", () => {
    for (const lens of Object.values(lenses)) for (const e of lens.v1FromEmulation ?? []) expect(() => emulationNamed(e.emulation), `${lens.name} ${e.v1}`).not.toThrow();
  });
});
