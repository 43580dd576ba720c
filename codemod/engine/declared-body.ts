// A v1 body whose fields are declared but not written here (a tool's input, a typed parameter):
// converted as a literal body is, each field read from the value (`params.imageName`), so the call
// sends the nested v2 body. The fields the declaration marks optional may be undefined at run time,
// which the converters' source forms handle as they do for a literal's optional values.
import type { Node } from "../ts-morph.ts";
import { lensNamed } from "../../mappings/index.ts";
import type { SourceInput } from "../../mappings/index.ts";
import { convertFieldMap, type BodyConversion, type BodyProblem, type V1Field } from "./body.ts";
import { lineIndent, render, type Verbatim } from "./body-render.ts";
import type { DeclaredShape } from "./declared-shapes.ts";
import { quoteString } from "./urls.ts";

const IDENT = /^[A-Za-z_$][\w$]*$/;

export function convertDeclared(value: Node, shape: DeclaredShape, lensName: string, quote: string): BodyConversion {
  const lens = lensNamed(lensName);
  const problems: BodyProblem[] = [];
  const verbatim: Verbatim[] = [];
  const base = value.getText();
  const fields = new Map<string, V1Field>();
  for (const f of shape.fields) {
    const source = IDENT.test(f.name) ? `${base}.${f.name}` : `${base}[${quoteString(f.name, quote)}]`;
    const known = f.oneOf?.length === 1 && !f.optional ? { known: { value: f.oneOf[0] } } : {};
    const input: SourceInput = { source, optional: f.optional, ...(f.oneOf ? { oneOf: f.oneOf } : {}), ...known };
    const key = IDENT.test(f.name) ? f.name : quoteString(f.name, quote);
    const value: V1Field["value"] = f.literal ? { literal: true, value: f.literal.value, source } : { literal: false, source, input, nonNull: !f.nullable };
    fields.set(f.name, { name: f.name, value, comments: [], trailing: [], text: `${key}: ${source}` });
  }
  const out = convertFieldMap(lens, fields, quote, problems, verbatim);
  const indent = lineIndent(value.getSourceFile().getFullText(), value.getStart());
  return { text: render(out, true, indent, "  ", quote, verbatim), problems };
}
