// Differential property: the codemod and the gateway agree on every converter the codemod writes.
// For each operation whose request body goes through a converter, bodies are generated from the
// operation's v1 request schema and written in the client's source as real clients write them
// (literals, typed, untyped, `as const`-typed and computed expressions); the codemod converts that
// object literal (codemod/engine/body.ts, as `rewrite` does) and the written v2 body is evaluated with the
// values the client holds at run time. It must send what the gateway sends for the same v1 JSON,
// or the site must be marked. Where the gateway refuses the v1 body, v2 must refuse the written
// one too. A computed value is computed once (in a const before the body where the form reads it
// twice), and the written TypeScript type-checks (strict).
// A failure prints fast-check's seed and counterexample; FC_SEED=<seed> replays it.
import fc from "fast-check";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { convertBody } from "../../codemod/engine/body.ts";
import { newProject } from "../../codemod/project-index.ts";
import type { ObjectLiteralExpression } from "../../codemod/ts-morph.ts";
import { converterNamed, lenses, operations, toV2, type BodyLens, type Converter, type FieldLens, type OperationMapping, type V1Kind } from "../../mappings/index.ts";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { createV2Validator } from "../../openapi/validator.ts";
import { refDescribe } from "../helpers/reference.ts";
import { clientSource, deref, fieldCase, runtimeScope, sentBody, type FieldCase } from "../helpers/v1-field-cases.ts";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 80), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) };

interface Target {
  op: OperationMapping;
  lens: BodyLens;
  field: FieldLens;
  converter: Converter;
}

/** Every (request lens, converter field) pair, with the first operation that sends that lens. */
function targets(): Target[] {
  const out: Target[] = [];
  const seen = new Set<string>();
  for (const op of operations) {
    const name = op.request?.lens;
    if (!name || !op.v2 || seen.has(name)) continue;
    seen.add(name);
    const lens = lenses[name]!;
    for (const field of lens.fields) {
      if (field.converter && field.only !== "toV1") out.push({ op, lens, field, converter: converterNamed(field.converter) });
    }
  }
  return out;
}

const at = (obj: unknown, dotted: string) => dotted.split(".").reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
const json = (v: unknown) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** A converter's declared input kind is the v1 schema's (an enum it branches on is listed; others are read as their type). */
function kindMatches(v1: ReturnType<typeof loadV1>, accept: { kind: V1Kind; nullable?: boolean } | undefined, schema: Record<string, any>): boolean {
  const s = deref(v1, schema);
  if (!accept || !!accept.nullable !== !!s.nullable) return false;
  if (Array.isArray(accept.kind)) return JSON.stringify(accept.kind) === JSON.stringify(s.enum);
  if (accept.kind === "string[]") return s.type === "array" && deref(v1, s.items).type === "string";
  return accept.kind === s.type;
}

/** Strict TypeScript diagnostics of one file. */
function diagnostics(text: string): string[] {
  const file = path.resolve("__differential__.ts");
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ["lib.es2023.d.ts"], types: [] };
  const host = ts.createCompilerHost(options);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) => (path.resolve(f) === file ? ts.createSourceFile(f, text, lang) : getSource(f, lang, ...rest));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    return `${text.split("\n")[line] ?? ""}\n  → TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

refDescribe("every converter's written form sends what the gateway sends", () => {
  const v1 = loadV1();
  const v2Validator = createV2Validator(loadV2());
  const project = newProject();
  const all = targets();
  const written: string[] = [];

  it("covers every converter the codemod writes into a request body", () => {
    const names = new Set(all.map((t) => t.converter.name));
    for (const c of ["flashboot", "scaling", "idleTimeout", "networkVolumeList", "podMounts", "podVolumeUpdate", "templateMounts", "templateVolumeUpdate", "podCompute", "endpointCpu", "argv", "endpointGpu"]) expect(names).toContain(c);
  });

  it.each(all.map((t) => [`${t.lens.name} ${t.field.v1.join("+")} (${t.converter.name})`, t] as const))("%s", (_, { op, lens, field, converter }) => {
    const request = deref(v1, v1.paths[op.v1.path]![op.v1.method.toLowerCase()].requestBody.content["application/json"].schema);
    const names = [...new Set(field.v1.map((p) => p.split(".")[0]!))];
    for (const n of names) expect(request.properties?.[n], `${op.v1.path} ${n}`).toBeDefined();
    // The kinds the converter reads are the v1 document's (a value of another kind is refused and marked).
    names.forEach((n, i) => expect(kindMatches(v1, converter.accepts?.[i], request.properties[n]), `${converter.name} reads ${n} as the v1 document types it`).toBe(true));
    const tops = [...new Set(field.v2.map((p) => p.split(".")[0]!))];
    const label = `${field.v1.join(", ")}:`;
    const bodies = fc.tuple(...names.map((n) => fieldCase(v1, request.properties[n], n))).map((fs) => fs.filter((f): f is FieldCase => f !== null)).filter((fs) => fs.length > 0);

    fc.assert(
      fc.property(bodies, (fields) => {
        const { declarations, body } = clientSource(fields);
        const sf = project.createSourceFile("/differential/client.ts", `${declarations}\nconst body = ${body};\n`, { overwrite: true });
        const result = convertBody(sf.getVariableDeclarationOrThrow("body").getInitializerOrThrow() as ObjectLiteralExpression, lens.name, '"');
        const text = result.text ?? body;
        // A value computed once in a const before the statement (codemod/engine/computed-fields.ts).
        const before = result.text !== null ? (result.before ?? []).map((e) => e.text).join("") : "";
        written.push(`namespace case${written.length} { // ${lens.name} ${converter.name}\n${declarations}\n${before}export const body = ${text};\n}`);
        const scope = runtimeScope(fields);
        const sent = sentBody(fields);
        const context = `\n  client body: ${body}\n  written:     ${before}${text}\n  sent (v1):   ${JSON.stringify(sent)}`;
        const evaluated = json(new Function("v", "t", "c", `${before}return (${text});`)(scope.v, scope.t, scope.c));

        // Marked: the converter's fields are left as they were, with a mark (a review note is not one).
        const present = names.filter((n) => fields.some((f) => f.name === n));
        if (result.problems.some((p) => sameSet(p.fields, present) && !p.review)) return;

        expect([...scope.calls.entries()].filter(([, n]) => n > 1), `computed more than once${context}`).toEqual([]);
        // The gateway refuses a value of a kind v1 refused, and one the converter cannot place (a
        // 5 GB volume). Ranges v1 checked (gpuCount >= 1) are v2's to check: the forms follow toV2.
        const gateway = toV2(lens, sent, {});
        const refusal = gateway.rejections.find((r) => r.startsWith(label));
        if (refusal) {
          const v2Check = v2Validator.validateRequestBody(op.v2!.method, op.v2!.path, evaluated);
          const refusedToo = !v2Check.ok && v2Check.errors.some((e) => tops.some((t) => e.startsWith(`/${t}`)));
          expect(refusedToo, `the gateway refuses this body (${refusal}) and v2 takes what the codemod wrote: ${JSON.stringify(tops.map((t) => evaluated[t]))}${context}`).toBe(true);
          return;
        }
        const sentByGateway = json(gateway.body);
        expect(field.v2.map((p) => at(evaluated, p)), `v2 fields ${field.v2.join(", ")}${context}`).toEqual(field.v2.map((p) => at(sentByGateway, p)));
      }),
      RUNS,
    );
  }, 180_000);

  // After every converter above: the TypeScript written for each generated body type-checks
  // (strict), as the client's own body did: no comparison that can never hold (TS2367), no
  // possibly-null operand. One program for all of them.
  it("the TypeScript written for every generated body type-checks", () => {
    expect(written.length).toBeGreaterThan(all.length);
    expect(diagnostics(written.join("\n"))).toEqual([]);
  }, 120_000);
});
