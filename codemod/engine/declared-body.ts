// A v1 body whose fields are declared but not written here (a tool's input, a typed parameter):
// converted as a literal body is, each field read from the value (`params.imageName`), so the call
// sends the nested v2 body. The fields the declaration marks optional may be undefined at run time,
// which the converters' source forms handle as they do for a literal's optional values. A typed
// parameter's callers narrow that (caller-fields.ts): a field none passes is left out, and the
// values they pass are the ones it can hold.
import type { Node } from "../ts-morph.ts";
import { lensNamed } from "../../mappings/index.ts";
import type { SourceInput } from "../../mappings/index.ts";
import { convertFieldMap, type BodyConversion, type BodyProblem, type V1Field } from "./body.ts";
import { lineIndent, render, type Verbatim } from "./body-render.ts";
import type { DeclaredField, DeclaredShape } from "./declared-shapes.ts";
import { quoteString } from "./urls.ts";
import { isTypeScriptFile } from "./nodes.ts";
import type { CallerField } from "./caller-fields.ts";

/** The declared field as its callers give it: always there when every caller passes it, and their literals its values. */
function narrowed(f: DeclaredField, given: CallerField): DeclaredField {
  // A value not known may still be undefined, unless it is a list written with an entry.
  const optional = given.absent || (!!given.unknownAt && f.optional && !given.nonEmptyList);
  const values = given.values && [...new Map(given.values.map((v) => [JSON.stringify(v), v])).values()];
  return { ...f, optional, nullable: values ? values.includes(null) : f.nullable, ...(values ? { oneOf: values } : {}) };
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

export function convertDeclared(value: Node, shape: DeclaredShape, lensName: string, quote: string, callers?: Map<string, CallerField>): BodyConversion {
  const lens = lensNamed(lensName);
  const problems: BodyProblem[] = [];
  const verbatim: Verbatim[] = [];
  const fields = declaredFields(value, shape, quote, callers);
  const out = convertFieldMap(lens, fields, quote, problems, verbatim);
  nameCallers(problems, callers);
  const indent = lineIndent(value.getSourceFile().getFullText(), value.getStart());
  return { text: render(out, true, indent, "  ", quote, verbatim), problems };
}

/** A problem about a field a caller gives a value not known here names that caller. */
export function nameCallers(problems: BodyProblem[], callers: Map<string, CallerField> | undefined): void {
  for (const p of problems) {
    const unknown = [...(callers ?? [])].find(([name, c]) => c.unknownAt && new RegExp(`\\b${name}\\b`).test(p.reason));
    if (unknown) p.reason += ` (${unknown[0]}: ${unknown[1].unknownAt})`;
  }
}

/** The v1 fields of the value as its declaration (and its callers) say, each read from the value. */
export function declaredFields(value: Node, shape: DeclaredShape, quote: string, callers?: Map<string, CallerField>): Map<string, V1Field> {
  const base = value.getText();
  const typed = isTypeScriptFile(value.getSourceFile().getFilePath());
  const fields = new Map<string, V1Field>();
  for (const declared of shape.fields) {
    const given = callers?.get(declared.name);
    // No caller passes it: the body never carries it.
    if (given?.absent && given.values?.length === 0) continue;
    const f = given ? narrowed(declared, given) : declared;
    // Declared optional, given by every caller: read as present (`!` tells the checker what the callers do).
    const sure = typed && declared.optional && !f.optional ? "!" : "";
    const holder = declared.readFrom ?? base;
    const source = (IDENT.test(f.name) ? `${holder}.${f.name}` : `${holder}[${quoteString(f.name, quote)}]`) + sure;
    const known = f.oneOf?.length === 1 && !f.optional ? { known: { value: f.oneOf[0] } } : {};
    const entries = given ? (given.nonEmptyList ? (given.oneEntry ? "one" : "some") : undefined) : declared.entries;
    const nonEmpty = entries && !f.optional ? { nonEmpty: true, ...(entries === "one" ? { oneEntry: true } : {}) } : {};
    const input: SourceInput = { source, optional: f.optional, ...(f.oneOf ? { oneOf: f.oneOf } : {}), ...known, ...nonEmpty };
    const key = IDENT.test(f.name) ? f.name : quoteString(f.name, quote);
    const value: V1Field["value"] = f.literal ? { literal: true, value: f.literal.value, source } : { literal: false, source, input, nonNull: !f.nullable };
    fields.set(f.name, { name: f.name, value, comments: [], trailing: [], text: `${key}: ${source}` });
  }
  return fields;
}
