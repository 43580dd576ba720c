// Every v1 operation in the published document has exactly one entry in the table, and back.
import { describe, expect, it } from "vitest";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { operations, matchV1, emulations, versionChanges } from "../../mappings/index.ts";
import { refDescribe } from "../helpers/reference.ts";

const METHODS = ["get", "post", "put", "patch", "delete"];

refDescribe("mapping table covers v1-openapi.json", () => {
  const v1 = loadV1();
  const documented = Object.entries(v1.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => ({ method: m.toUpperCase(), path, operationId: item[m].operationId as string })),
  );

  it("the document has the 37 operations the table is written against", () => {
    expect(documented).toHaveLength(37);
  });

  it.each(documented.map((d) => [`${d.method} ${d.path}`, d] as const))("%s has exactly one entry", (_, d) => {
    const entries = operations.filter((o) => o.v1.method === d.method && o.v1.path === d.path);
    expect(entries, `no mapping entry for ${d.method} ${d.path}`).toHaveLength(1);
    expect(entries[0]!.v1.operationId).toBe(d.operationId);
  });

  it("has no entry for an operation the document does not define", () => {
    for (const op of operations) {
      expect(documented.some((d) => d.method === op.v1.method && d.path === op.v1.path), op.key).toBe(true);
    }
  });

  it("keys are unique", () => {
    expect(new Set(operations.map((o) => o.key)).size).toBe(operations.length);
  });

  it("each entry's v1 success status is one the document lists (restart documents none: 200 as its siblings)", () => {
    for (const op of operations) {
      const responses = Object.keys(v1.paths[op.v1.path]![op.v1.method.toLowerCase()].responses);
      const successes = responses.filter((s) => s.startsWith("2"));
      if (successes.length) expect(successes, op.key).toContain(String(op.v1.status));
      else expect(op.key).toBe("RestartPod");
    }
  });

  it("each entry's v2 success status is one v2-openapi.json lists for its v2 operation; where it lists several, the one this request gets", () => {
    const v2doc = loadV2();
    for (const op of operations.filter((o) => o.v2)) {
      const responses = Object.keys(v2doc.paths[op.v2!.path]![op.v2!.method.toLowerCase()].responses);
      const successes = responses.filter((s) => s.startsWith("2"));
      for (const status of [op.v2!.status].flat()) expect(successes, op.key).toContain(String(status));
      // The action operation also lists 204, which only `action: "terminate"` gets (no v1 path sends it).
      if (successes.length > 1) expect(op.request?.fixedBody?.action, op.key).toMatch(/^(start|stop|restart)$/);
    }
  });

  it("v2 creates answer 201 where v1 answered 200 (the codemod rewrites status checks from this)", () => {
    const differ = operations.filter((o) => o.v2 && o.v2.status !== o.v1.status).map((o) => `${o.key} ${o.v1.status}->${o.v2!.status}`);
    expect(differ).toEqual(["CreateEndpoint 200->201", "CreateTemplate 200->201", "CreateNetworkVolume 200->201", "CreateContainerRegistryAuth 200->201"]);
  });

  it("documented status codes match the product owner's facts", () => {
    const status = (key: string) => operations.find((o) => o.key === key)!.v1.status;
    expect(status("CreatePod")).toBe(201);
    for (const k of ["CreateEndpoint", "CreateTemplate", "CreateNetworkVolume", "CreateContainerRegistryAuth"]) expect(status(k)).toBe(200);
    for (const o of operations.filter((o) => o.v1.method === "DELETE")) expect(o.v1.status).toBe(204);
    for (const k of ["StartPod", "StopPod", "ResetPod"]) expect(status(k)).toBe(200);
  });

  it("every concrete v1 path matches its own entry", () => {
    for (const op of operations) {
      const concrete = op.v1.path.replace(/\{\w+\}/g, "abc123");
      expect(matchV1(op.v1.method, concrete)?.operation.key, op.v1.path).toBe(op.key);
    }
  });

  it("no-equivalent entries carry a decision with advice; reset is one of them", () => {
    for (const op of operations.filter((o) => o.status === "no-equivalent")) {
      expect(op.decision?.advice.length, op.key).toBeGreaterThan(20);
      expect(op.v2).toBeNull();
    }
    expect(operations.find((o) => o.key === "ResetPod")!.status).toBe("no-equivalent");
  });

  it("/billing/endpoints maps to /v2/billing/serverless, never /v2/billing/endpoints", () => {
    const op = operations.find((o) => o.v1.path === "/billing/endpoints")!;
    expect(op.v2?.path).toBe("/v2/billing/serverless");
    expect(operations.some((o) => o.v2?.path === "/v2/billing/endpoints")).toBe(false);
  });

  it("named emulations and changes referenced by entries exist", () => {
    const emulationNames = new Set(emulations.map((e) => e.name));
    const changeIds = new Set(versionChanges.map((c) => c.id));
    for (const op of operations) {
      for (const e of op.emulations ?? []) expect(emulationNames.has(e), `${op.key}: ${e}`).toBe(true);
      for (const c of op.changes) expect(changeIds.has(c), `${op.key}: ${c}`).toBe(true);
    }
  });

  it("an answer v1 documents as empty names the record v2 answers, where v2 answers one (the pod actions: the updated pod)", () => {
    const v2 = loadV2();
    const answered = (op: (typeof operations)[number]) => {
      const ok = v2.paths[op.v2!.path]![op.v2!.method.toLowerCase()].responses["200"];
      const ref = ok?.content?.["application/json"]?.schema?.$ref as string | undefined;
      return ref?.split("/").pop();
    };
    for (const op of operations.filter((o) => o.response.kind === "empty" && o.v2)) {
      expect(op.v2AnswerRecord?.v2Schema, op.key).toBe(answered(op));
      // The record is one a v1 read of the same resource is converted through (GetPod's).
      if (op.v2AnswerRecord) expect(operations.some((o) => o.response.kind === "record" && o.response.lens === op.v2AnswerRecord!.name), op.key).toBe(true);
    }
    expect(operations.filter((o) => o.v2AnswerRecord).map((o) => o.key)).toEqual(["StartPod", "StopPod", "RestartPod"]);
    // Only for answers v1 documents as empty: the gateway answers those as v1 says.
    for (const op of operations.filter((o) => o.v2AnswerRecord)) expect(op.response, op.key).toEqual({ kind: "empty" });
  });

  it("v2 targets exist in v2-openapi.json with the same operationId", () => {
    const v2 = loadV2();
    for (const op of operations.filter((o) => o.v2)) {
      const item = v2.paths[op.v2!.path];
      expect(item, `${op.key} → ${op.v2!.path}`).toBeDefined();
      expect(item![op.v2!.method.toLowerCase()]?.operationId, op.key).toBe(op.v2!.operationId);
    }
  });
});
