// One lens as a function of the generated module: a v1 body → v2 body (`toV2`) or a v2 record →
// v1 record (`toV1`), doing what mappings/compiled-lens.ts does at the gateway: v1 defaults,
// refused inputs, each field's copy or converter, v2 defaults. Or the reasons it cannot.
import type { BodyLens } from "../../mappings/types.ts";
import type { AdapterTable } from "./table.ts";
import { stepSource, type Direction } from "./step-source.ts";
import { camel, indent, literal, type Annotate } from "./source-text.ts";

/**
 * `omits`: v1 record fields left out because their converter needs the live GPU catalog (a
 * record lens only): the function is written without them, and the plan says which they are.
 */
export type LensSource = { ok: true; name: string; code: string; omits?: { fields: string[]; reason: string }[] } | { ok: false; reasons: string[] };

export function lensFunctionName(lens: BodyLens, direction: Direction): string {
  const base = camel(lens.name.replace(/-record$/, ""));
  return `${direction === "toV2" ? "body" : "record"}${base[0]!.toUpperCase()}${base.slice(1)}`;
}

/** v1 defaults as the lens engine applies them (withV1Defaults), or no statement when the lens has none. */
function defaultsSource(lens: BodyLens): string[] {
  if (!lens.v1Defaults) return [];
  const except = (lens.v1DefaultsExcept ?? []).map((e) => ({ field: e.field, when: e.when }));
  const always = (lens.v1DefaultsAlways ?? []).filter((k) => k in lens.v1Defaults!);
  return [`v1 = withV1Defaults(v1, ${literal(lens.v1Defaults)}, ${literal(lens.v1DefaultsUnless)}, ${literal(except)}, ${literal(always)});`];
}

/** Inputs v2 cannot take (the table's "reject" decisions), as [field, harmless value, message]. */
function refusalRules(lens: BodyLens): unknown[][] {
  return (lens.unmapped ?? [])
    .filter((u) => u.decision === "reject")
    .map((u) => [u.v1, u.harmlessValue === undefined ? undefined : JSON.stringify(u.harmlessValue), `${u.v1}: ${u.reason}; ${u.advice}`]);
}

/** Converters' own refusals of inputs of another kind (the gateway's `define`), in field order. */
function kindChecksSource(lens: BodyLens, table: AdapterTable): string[] {
  const out: string[] = [];
  for (const f of lens.fields) {
    if (f.only === "toV1" || !f.converter) continue;
    const accepts = table.converters[f.converter]?.accepts;
    if (!accepts) continue;
    const checks = f.v1.map((field, i) => [field, accepts[i]!.kind, !!accepts[i]!.nullable]);
    out.push(`checkKinds(v1, ${literal(f.v1.join(", "))}, ${literal(checks)}, refused);`);
  }
  return out;
}

/** What v2 refuses, thrown as the gateway's 400 message: the converters' refusals first, then the reject rules (compiled-lens.ts). */
function refusalsSource(lens: BodyLens, table: AdapterTable, t: Annotate): string[] {
  const checks = kindChecksSource(lens, table);
  const rules = refusalRules(lens);
  if (!checks.length && !rules.length) return [];
  return [`const refused${t(": string[]")} = [];`, ...checks, `refuse(v1, ${literal(rules)}, refused);`];
}

export function lensSource(lens: BodyLens, direction: Direction, table: AdapterTable, t: Annotate): LensSource {
  const reasons: string[] = [];
  if (direction === "toV2") {
    for (const u of lens.unmapped ?? []) {
      if (u.decision === "emulate") reasons.push(`${u.v1}: ${u.reason}`);
    }
  }
  const steps: string[] = [];
  const omits: { fields: string[]; reason: string }[] = [];
  const src = direction === "toV2" ? "v1" : "v2";
  for (const f of lens.fields) {
    if (f.only && f.only !== direction) continue;
    const step = stepSource(f, direction, table.converters, src, t);
    const c = table.converters[f.converter ?? ""];
    if (!step.ok && direction === "toV1" && c?.needsCatalog) omits.push({ fields: f.v1, reason: step.reason });
    else if (!step.ok) reasons.push(step.reason);
    else {
      // Written without the outputs that need the catalog: those are left out.
      const left = direction === "toV1" && c?.needsCatalog ? (c.catalogOutputs ?? []).map((i) => f.v1[i]!) : [];
      if (left.length) omits.push({ fields: left, reason: `${left.join(", ")}: ${c!.name} needs the live GPU catalog` });
      if (step.code) steps.push(step.code);
    }
  }
  if (reasons.length) return { ok: false, reasons };

  const name = lensFunctionName(lens, direction);
  const lines =
    direction === "toV2"
      ? [
          `${lens.v1Defaults ? "let" : "const"} v1${t(": Obj")} = objectOf(input, ${literal(`a v1 ${lens.v1Schema} object`)}, true);`,
          ...defaultsSource(lens),
          ...refusalsSource(lens, table, t),
          `const out${t(": Obj")} = {};`,
          ...steps,
          ...Object.entries(lens.v2Defaults ?? {}).map(([path, value]) => `if (get(out, ${literal(path)}) === undefined) put(out, ${literal(path)}, ${literal(value)});`),
          "return out;",
        ]
      : [
          // No record (a 404's empty body: `{ statusCode, result: null }`) passes as it is, as the gateway converts no missing body.
          "if (input === null || input === undefined) return input;",
          `const v2${t(": Obj")} = objectOf(input, ${literal(`a v2 ${lens.v2Schema} object`)}, false);`,
          `const out${t(": Obj")} = {};`,
          ...steps,
          "return out;",
        ];
  const code = `function ${name}(input${t(": unknown")})${t(": any")} {\n${indent(lines.join("\n"))}\n}`;
  return omits.length ? { ok: true, name, code, omits } : { ok: true, name, code };
}
