// One read of a v1 record field on a v1 call's response (`pod.containerDiskInGb`, `pod.desiredStatus`):
// renamed from the operation's record lens, converted through the converter's v1-direction form,
// or a problem naming the read. The project's types the record is read through follow the read.
import { generatorOf } from "../generated-client.ts";
import { Node } from "../../ts-morph.ts";
import { converterNamed, type BodyLens, type FieldLens, type OperationMapping } from "../../../mappings/index.ts";
import { edit, type Plan } from "../state.ts";
import { declaredOutsideRun, editableField, receiverOutsideRun, membersNamed, renameDeclaredField, retypeDeclaredField } from "../declared-types.ts";
import { convertedRead, declareReadHelper, type Retype } from "./converted-reads.ts";
import { declaresField, onlyTested } from "./record-flow-facts.ts";
import { skipParens } from "../nodes.ts";

export type ByFirst = Map<string, { segs: string[]; lens: FieldLens }[]>;
/** The lens's v1Lost fields by name: reads of them get a mark. */
export type Lost = Map<string, { v1: string; reason: string; advice: string; lostFor?: string }>;

export function fieldIndex(fields: FieldLens[]): ByFirst {
  const byFirst: ByFirst = new Map();
  for (const f of fields) {
    if (f.only === "toV2") continue;
    for (const v1 of f.v1) {
      const segs = v1.split(".");
      const list = byFirst.get(segs[0]!) ?? [];
      list.push({ segs, lens: f });
      byFirst.set(segs[0]!, list);
    }
  }
  for (const list of byFirst.values()) list.sort((x, y) => y.segs.length - x.segs.length);
  return byFirst;
}

/** The member names read from the record at `access` onwards: `pod.gpu.displayName` → [gpu, displayName]. */
export function readChain(access: Node): string[] {
  const names: string[] = [];
  let at: Node = access;
  while (Node.isPropertyAccessExpression(at)) {
    names.push(at.getName());
    const up = at.getParent();
    if (!up || !Node.isPropertyAccessExpression(up) || up.getExpression() !== at) break;
    at = up;
  }
  return names;
}

/**
 * The names a read adds to the fields an answer's flow reaches: the first member (as before), and
 * each longer chain (`gpu.displayName`); a chain that ends read as a whole also as `gpu.*`, since
 * any member of it may be read where it goes (adapter-sites.ts matches lost nested fields so).
 */
export function reachedNames(access: Node): string[] {
  const chain = readChain(access);
  const names = chain.map((_, i) => chain.slice(0, i + 1).join("."));
  let last: Node = access;
  for (let i = 1; i < chain.length; i++) last = last.getParent()!;
  const p = last.getParent();
  const wholeRead = !(p && (Node.isCallExpression(p) || Node.isExpressionStatement(p))) && !testedOnly(last);
  return wholeRead ? [...names, `${names[names.length - 1]}.*`] : names;
}

/** An object read only to test it (`p.gpu ? … : "cpu"`, `pod.gpu && …`, `pod.gpu == null`): none of its members is read. */
function testedOnly(read: Node): boolean {
  if (onlyTested(read)) return true;
  const outer = skipParens(read);
  const p = outer.getParent();
  if (!p || !Node.isBinaryExpression(p)) return false;
  const op = p.getOperatorToken().getText();
  return (op === "&&" && p.getLeft() === outer) || ["===", "!==", "==", "!="].includes(op);
}

/**
 * A v1 object v2 has under the same name, whose members differ (v2 pod `gpu` is only {id, count}),
 * read only to test it: as true or false on v2 as on v1.
 */
function objectTestedOnly(access: Node, byFirst: ByFirst): boolean {
  const name = (access as any).getName() as string;
  const p = access.getParent();
  if (p && Node.isPropertyAccessExpression(p) && p.getExpression() === access) return false;
  const kept = (byFirst.get(name) ?? []).some((c) => c.segs.length > 1 && !c.lens.converter && c.lens.v2.length === 1 && c.lens.v2[0]!.split(".")[0] === name);
  return kept && testedOnly(access);
}

/** The v1Lost entry this read reaches: its own name, or a nested one along the chain (`gpu.oneMonthPrice`). */
function lostAt(access: Node, lost: Lost): { v1: string; reason: string; advice: string; lostFor?: string } | undefined {
  const chain = readChain(access);
  for (let i = chain.length; i >= 1; i--) {
    const gone = lost.get(chain.slice(0, i).join("."));
    if (gone) return gone;
  }
  return undefined;
}

/**
 * `declared`: the record type the code declares the body through at its read (declaredBodyRecord),
 * whose members follow the reads as the receiver's own type does.
 */
export function recordField(plan: Plan, access: Node, byFirst: ByFirst, lost: Lost, op: OperationMapping, lens: BodyLens, declared?: Node): void {
  if (!Node.isPropertyAccessExpression(access)) return;
  const gone = lostAt(access, lost);
  if (gone) {
    // Left as it is the read would be undefined in v2 without a word: the human decides.
    // The call stays whole on v1 (its mark names the read).
    const line = access.getSourceFile().getLineAndColumnAtPos(access.getStart()).line;
    // Lost for some records only (a GPU pod's vcpuCount): said so, since the others have it.
    const some = gone.lostFor ? ` for ${gone.lostFor}` : "";
    const reason = `reads v1 record field ${gone.v1} (${access.getSourceFile().getBaseName()}:${line}), which has no v2 source${some}: ${gone.reason}`;
    if (!plan.problems.some((p) => p.reason === reason)) plan.problems.push({ risk: "silent", reason, advice: gone.advice, brief: `reads v1 record field ${gone.v1} (${access.getSourceFile().getBaseName()}:${line}), which v2 does not have${some}` });
    return;
  }
  for (const cand of byFirst.get(access.getName()) ?? []) {
    let last: Node = access;
    let ok = true;
    for (const seg of cand.segs.slice(1)) {
      const up = last.getParent();
      if (!up || !Node.isPropertyAccessExpression(up) || up.getExpression() !== last || up.getName() !== seg) {
        ok = false;
        break;
      }
      last = up;
    }
    if (!ok) continue;
    const f = cand.lens;
    const v1 = cand.segs.join(".");
    const retype: Retype = (receiver, v1Field, v2Field) =>
      retypeDeclaredField(plan.a, receiver, v1Field, v2Field, (decl, name, type) => {
        edit(plan, name, { start: name.getStart(), end: name.getEnd(), text: v2Field });
        if (type) edit(plan, type, { start: type.getStart(), end: type.getEnd(), text: "unknown" });
        (plan.site.typeRenames ??= new Set()).add(decl);
      });
    // The declared record's member moves with the read: renamed, or retyped `unknown` for a
    // converted one (optional only, as for the receiver's own type); one it cannot follow refuses the read.
    const members = membersNamed(declared, cand.segs[0]!);
    const flat = cand.segs.length === 1 && f.v2.length === 1 && !f.v2[0]!.includes(".");
    // A member declared where the run may not edit it (a package's types) cannot follow the read.
    const outside = members.length ? !members.every((m) => editableField(plan.a, m)) : declaredOutsideRun(plan.a, declared) || receiverOutsideRun(plan.a, access.getExpression());
    const membersMove = !outside && (!members.length || (flat && !members.some((m) => v2Clash(m, f.v2[0]!, byFirst)) && (!f.converter || members.every((m) => (m as any).hasQuestionToken()))));
    const converted = f.converter && membersMove ? convertedRead(access, last, f, v1, retype) : undefined;
    for (const m of membersMove ? members : []) {
      const name = (m as any).getNameNode() as Node;
      const type = (m as any).getTypeNode() as Node | undefined;
      if (f.converter && !converted) break;
      edit(plan, name, { start: name.getStart(), end: name.getEnd(), text: f.v2[0]! });
      if (f.converter && type) edit(plan, type, { start: type.getStart(), end: type.getEnd(), text: "unknown" });
      (plan.site.typeRenames ??= new Set()).add(m);
    }
    if (converted || (f.v2.length === 1 && f.v2[0] !== v1 && !f.converter)) noteReadChange(plan, access, v1, f.v2, f.converter);
    if (converted) {
      edit(plan, access, { start: access.getStart(), end: last.getEnd(), text: converted.text });
      const site = plan.site;
      const before = site.onApply;
      const file = plan.a.files.get(access.getSourceFile().getFilePath())!;
      // Not when the record went through the adapter after all (its reads stay v1, the edit is dropped).
      site.onApply = () => (before?.(), site.keepsV1Record || declareReadHelper(file, converted.helper));
    } else if (f.converter) {
      const conv = converterNamed(f.converter);
      // The read cannot be renamed: the call stays whole on v1, and its mark names the read.
      const line = access.getSourceFile().getLineAndColumnAtPos(access.getStart()).line;
      const reason = `reads v1 record field ${v1} (${access.getSourceFile().getBaseName()}:${line}), which is ${f.v2.join(" + ")} in v2 with other values (converter ${f.converter})`;
      // A converter that needs the live catalog says where the v2 client finds the value.
      const advice = conv?.needsCatalog && conv.codemodReason ? conv.codemodReason : `read ${f.v2.map((x) => "." + x).join(" / ")} and convert it as docs/mapping.md describes for ${f.converter}`;
      if (!plan.problems.some((p) => p.reason === reason)) plan.problems.push({ risk: "silent", reason, advice });
    } else if (f.v2.length === 1 && f.v2[0] !== v1) {
      const start = (access as any).getNameNode().getStart();
      // A nested v2 field may be absent where the v1 field was only empty: read it optionally.
      edit(plan, access, { start, end: (last as any).getNameNode().getEnd(), text: f.v2[0]!.split(".").join("?.") });
      // The record's declared type (the project's own interface or type literal) follows the read.
      const object = Node.isPropertyAccessExpression(access) ? access.getExpression() : access;
      // A nested read (`machine.gpuTypeId` → `gpu.id`) has no declared member to rename; only a type
      // that declares its first member (checked below) stands in its way: an untyped record has none.
      const ok = cand.segs.length > 1 || renameDeclaredField(plan.a, object, v1, f.v2[0]!, (n, text) => {
        edit(plan, n, { start: n.getStart(), end: n.getEnd(), text });
        (plan.site.typeRenames ??= new Set()).add(n.getParent()!);
      });
      if (!ok || !membersMove || (cand.segs.length > 1 && declaresField(object, cand.segs[0]!))) {
        // A generated client's model (generated-client.ts): the next generation from v2 changes it, not the codemod.
        const model = (access.getSymbol()?.getDeclarations() ?? members).map((d) => d.getSourceFile()).find((sf) => generatorOf(sf));
        const reason = model
          ? `v1 record field ${v1} is ${f.v2[0]} in v2, and the type this code reads it through is the generated client's v1 model (${model.getBaseName()})`
          : outside
          ? `v1 record field ${v1} is ${f.v2[0]} in v2, and the type this code reads it through (${declared?.getText() ?? access.getExpression().getText()}) is declared outside the project's own source, which the codemod does not edit`
          : `v1 record field ${v1} is ${f.v2[0]} in v2, and the type this code reads it through declares ${v1}`;
        if (!plan.problems.some((p) => p.reason === reason)) plan.problems.push({ risk: "silent", reason, advice: model ? `read ${f.v2[0]} once the client is generated from the v2 document` : `change that type to the v2 record (${f.v2[0]})` });
      }
    }
    return;
  }
  if (objectTestedOnly(access, byFirst)) return;
  const unknown = unvouchedRead(access.getName(), byFirst, lens);
  if (unknown) {
    const line = access.getSourceFile().getLineAndColumnAtPos(access.getStart()).line;
    const reason = `reads ${access.getName()} (${access.getSourceFile().getBaseName()}:${line}), ${unknown}`;
    if (!plan.problems.some((p) => p.reason === reason)) plan.problems.push({ risk: "silent", reason, advice: "read what the v2 record has instead (docs/mapping.md)" });
  }
}

/** A read the rewrite changes with the call: named in the site's details should the site stay marked. */
function noteReadChange(plan: Plan, access: Node, v1: string, v2: string[], converter: string | undefined): void {
  const line = access.getSourceFile().getLineAndColumnAtPos(access.getStart()).line;
  const reason = `reads v1 record field ${v1} (${access.getSourceFile().getBaseName()}:${line}), which is ${v2.join(" + ")} in v2${converter ? ` with other values (converter ${converter})` : ""}`;
  const advice = converter ? `read ${v2.map((x) => "." + x).join(" / ")} and convert it as docs/mapping.md describes for ${converter}` : `read .${v2[0]} once the call is on v2`;
  const notes = (plan.site.readChanges ??= []);
  if (!notes.some((n) => n.reason === reason)) notes.push({ reason, advice });
}

/**
 * Renaming the member to `v2` would declare it twice: its type already declares `v2`, or another
 * member comes from the same v2 field (v1 `publicIp` and `portMappings` are both v2 `runtime`).
 */
function v2Clash(m: Node, v2: string, byFirst: ByFirst): boolean {
  const owner = m.getParent();
  const siblings = owner && (Node.isInterfaceDeclaration(owner) || Node.isTypeLiteral(owner)) ? owner.getMembers().filter((x) => x !== m && Node.isPropertySignature(x)) : [];
  return siblings.some((x) => {
    const name = (x as any).getName() as string;
    return name === v2 || (byFirst.get(name) ?? []).some((c) => c.segs.length === 1 && c.lens.v2[0] === v2);
  });
}

/**
 * Why a read the lens has no rename for cannot be vouched for on a v2 record, or undefined when it
 * can: a v1 object v2 spreads elsewhere read whole (`pod.machine`), or a field the gateway fills
 * with an extra request. A name neither document has (`j.pod?.state`) reads nothing on v1 and on
 * v2 alike (the documents are the field-level truth): left as written.
 */
function unvouchedRead(name: string, byFirst: ByFirst, lens: BodyLens): string | undefined {
  const parts = byFirst.get(name);
  const kept = parts?.some((c) => !c.lens.converter && c.lens.v2.length === 1 && c.lens.v2[0]!.split(".")[0] === name);
  if (parts) return `a v1 object ${kept ? "v2 keeps with fewer or other members" : "whose parts v2 keeps elsewhere"} (${parts.map((c) => `${c.segs.join(".")}→${c.lens.v2.join("+") || "(none)"}`).join(", ")}), read here as a whole`;
  const emulated = lens.v1FromEmulation?.find((e) => e.v1.split(".")[0] === name);
  if (emulated) return `a v1 field the gateway fills with an extra request (${emulated.emulation}); the v2 record does not have it`;
  return undefined;
}

/** The v1 record fields whose name or value differ in v2, and those v2 lacks (for the mark of a body that escapes). */
export function differingFields(fields: FieldLens[], lost: { v1: string }[] = []): string[] {
  const differ = fields.filter((f) => f.only !== "toV2" && (f.converter || f.v1.join() !== f.v2.join())).map((f) => `${f.v1.join("+")}→${f.v2.join("+") || "(none)"}`);
  return [...differ, ...lost.map((l) => `${l.v1}→(none)`)];
}
