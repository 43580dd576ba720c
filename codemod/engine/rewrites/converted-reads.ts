// Rewrite: a read of a v1 record field that v2 holds in another form (`pod.desiredStatus`, made
// from v2 `status` by the podStatus converter). Where the converter has a v1-direction source form
// (the one the boundary adapter is written from) and the field comes from one v2 field, the read
// becomes that form over the v2 field, so it yields exactly what the gateway would have answered:
// `v1DesiredStatus(pod.status)`, a helper written once per file from the podStatus converter.
// The receiver is read once, as the helper's argument. Not written (the caller marks the read
// instead): a write to the field, a form that needs the adapter's helpers, a converter
// needing the catalog, and a receiver typed with the v1 field but not the v2 one, unless the type
// is the project's own and can be retyped with the read (its field renamed, typed `unknown`).
import { Node } from "../../ts-morph.ts";
import type { FieldLens } from "../../../mappings/index.ts";
import { converterNamed } from "../../../mappings/index.ts";
import type { FileState } from "../state.ts";
import { afterImports, isTypeScriptFile, writtenAt } from "../nodes.ts";
import { insertAt } from "../text-edit.ts";

export interface ConvertedRead {
  /** Replaces the read from `access` to `last` (the v1 path's last segment). */
  text: string;
  /** The file's helper the text calls (written once per file, after its imports). */
  helper: { name: string; code: string };
}

/**
 * Makes the receiver's declared type carry the v2 field instead of the v1 one (the project's own
 * interface: `desiredStatus?: PodStatus` becomes `status?: unknown`), or false where it cannot.
 */
export type Retype = (receiver: Node, v1Field: string, v2Field: string) => boolean;

/** The converted read, or undefined where it cannot be written. */
export function convertedRead(access: Node, last: Node, f: FieldLens, v1Path: string, retype?: Retype): ConvertedRead | undefined {
  const conv = f.converter ? converterNamed(f.converter) : undefined;
  if (!conv?.codemodToV1 || f.v2.length !== 1 || !Node.isPropertyAccessExpression(access)) return undefined;
  const index = f.v1.indexOf(v1Path);
  // `pod.desiredStatus = …`, `delete pod.x`, `pod.x++` are not reads; `!pod.desiredStatus` is.
  if (index < 0 || writtenAt(last)) return undefined;
  // A catalog converter's other outputs (an endpoint's gpuCount) read back without it.
  if (conv.needsCatalog && (conv.catalogOutputs ?? [index]).includes(index)) return undefined;
  const ts = isTypeScriptFile(access.getSourceFile().getFilePath());
  // `pod.desiredStatus.toLowerCase()` in TypeScript: the helper's type includes undefined (absent
  // in v2 as in the gateway's answer), which a strict project rejects there.
  const up = last.getParent();
  if (ts && up && (Node.isPropertyAccessExpression(up) || Node.isElementAccessExpression(up) || Node.isCallExpression(up)) && up.getExpression() === last) return undefined;
  const receiver = access.getExpression();
  const recv = receiver.getText();
  const param = "value";
  const out = conv.codemodToV1([param])?.[index];
  if (!out || /\bsplitWords\(/.test(out)) return undefined;
  const leaf = v1Path.split(".").pop()!;
  const name = `v1${leaf[0]!.toUpperCase()}${leaf.slice(1)}`;
  // A name the file already uses for something else: not ours to shadow.
  const text = access.getSourceFile().getFullText();
  if (new RegExp(`\\b${name}\\b`).test(text) && !text.includes(`function ${name}(${param}`)) return undefined;
  // Last, as it edits the declared type: a single field read through the project's own type moves with the read.
  const [v1Top, v2Top] = [v1Path.split(".")[0]!, f.v2[0]!.split(".")[0]!];
  if (!typeAllows(receiver, v1Top, v2Top) && !(v1Path === v1Top && f.v2[0] === v2Top && retype?.(receiver, v1Top, v2Top))) return undefined;
  const code = [
    `// v2-bridge: v1 \`${v1Path}\` from v2 \`${f.v2[0]}\`, as the gateway's ${conv.name} converter answers it.`,
    // Returning `any` in TypeScript: the v1 read was typed by the project's own declaration of the
    // record (`any` from `res.json()`, or its interface), which the helper cannot know; its inferred
    // type would add `undefined` where a strict project returns the read as a `string`.
    `function ${name}(${param}${ts ? ": any" : ""})${ts ? ": any" : ""} {`,
    `  return ${param} === undefined ? undefined : ${out};`,
    "}",
  ].join("\n");
  // `pod?.desiredStatus` keeps its optional chain: the record may be absent.
  const dot = access.hasQuestionDotToken() ? "?." : ".";
  return { text: `${name}(${recv}${dot}${f.v2[0]!.split(".").join("?.")})`, helper: { name, code } };
}

/** Writes a converted read's helper into the file once, after its imports. */
export function declareReadHelper(file: FileState, helper: ConvertedRead["helper"]): void {
  if (file.declared.has(helper.name)) return;
  file.declared.add(helper.name);
  // Written by an earlier run (the file was migrated in part).
  if (file.text.includes(`function ${helper.name}(`)) return;
  const at = afterImports(file.sf, file.text);
  const text = at > 0 ? `\n\n${helper.code}` : `${helper.code}\n\n`;
  file.edits.push(insertAt(file.sf, at, text));
}

/** The receiver's type lets the v2 field be read: untyped (any, an index signature), or declaring the v2 field. */
function typeAllows(receiver: Node, v1Top: string, v2Top: string): boolean {
  try {
    const type = receiver.getType();
    if (type.isAny() || type.isUnknown()) return true;
    const parts = type.isUnion() ? type.getUnionTypes().filter((t) => !t.isNull() && !t.isUndefined()) : [type];
    return parts.every((t) => {
      if (t.isAny()) return true;
      if (t.getProperty(v2Top)) return true;
      return !t.getProperty(v1Top) && !!(t.getStringIndexType() ?? t.getNumberIndexType());
    });
  } catch {
    return false;
  }
}
