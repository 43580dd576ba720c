// A GitHub Action reads its inputs with `core.getInput('name')`, and the runner gives an input the
// workflow leaves unset the default its action.yml declares (`inputs.<name>.default`). A base
// read as `core.getInput('api-url') || DEFAULT` therefore never reaches DEFAULT while action.yml
// declares the v1 base as that input's default: flipping DEFAULT alone would send v2 paths to v1.
// action.yml is the project's own file: when the base flips, its default flips with it (the
// scalar only, byte for byte). As an environment default's variable is renamed (`X` → `X_V2`),
// the input is renamed too (`api-url` → `api-url-v2`, in action.yml and in every getInput that
// reads it): a workflow that sets `api-url` to the v1 base (or a gateway's /v1) must not get v2
// paths sent there; the runner warns about an input the action no longer declares and the action
// uses the v2 default. Where that cannot be done, the base stays v1 with a mark saying why.
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Node, SyntaxKind } from "../ts-morph.ts";
import { V1_HOST, V2_BASE } from "../../mappings/bases.ts";
import { manifestsAbove } from "./package-root.ts";
import type { ActionInput, Analysis, BaseSource } from "./state.ts";
import type { Edit } from "../types.ts";

/** The action's metadata file for a source file: action.yml / action.yaml in its package's folder. */
function actionFile(file: string): string | undefined {
  const dir = manifestsAbove(file).next().value?.dir;
  for (const name of ["action.yml", "action.yaml"]) if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

/** An input declared in action.yml: where its key is, and its `default:` scalar if it has one on its own line. */
interface Declared {
  name: string;
  key: { start: number; end: number };
  default?: { line: number; start: number; end: number; value: string };
}

/** The inputs of an action.yml, read by indentation (block style, as action.yml files are written). */
function declaredInputs(text: string): Declared[] {
  const lines: { text: string; start: number }[] = [];
  for (let start = 0; start <= text.length; ) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    lines.push({ text: text.slice(start, end).replace(/\r$/, ""), start });
    if (nl < 0) break;
    start = nl + 1;
  }
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  const at = lines.findIndex((l) => /^inputs\s*:\s*(#.*)?$/.test(l.text));
  if (at < 0) return [];
  const out: Declared[] = [];
  let inputIndent = -1;
  for (let i = at + 1; i < lines.length; i++) {
    const { text: l, start } = lines[i]!;
    if (!l.trim() || l.trim().startsWith("#")) continue;
    if (indent(l) === 0) break;
    const key = /^(\s*)(['"]?)([^'":#\s][^'":#]*?)\2\s*:(?=\s|$)/.exec(l);
    if (inputIndent < 0 || indent(l) <= inputIndent) {
      inputIndent = indent(l);
      if (key) out.push({ name: key[3]!, key: { start: start + key[1]!.length + key[2]!.length, end: start + key[1]!.length + key[2]!.length + key[3]!.length } });
      continue;
    }
    const input = out.at(-1);
    const d = /^(\s*default\s*:[ \t]*)(.*?)(\s+#.*)?$/.exec(l);
    if (!input || !d || input.default) continue;
    const raw = d[2]!;
    const quote = /^(['"]).*\1$/.exec(raw)?.[1] ?? "";
    const valueStart = start + d[1]!.length + quote.length;
    input.default = { line: i + 1, start: valueStart, end: valueStart + raw.length - 2 * quote.length, value: raw.slice(quote.length, raw.length - quote.length) };
  }
  return out;
}

/** `api-url` → `api-url-v2`, `api_url` → `api_url_v2`. */
function renamedInput(name: string): string {
  return `${name}${name.includes("_") && !name.includes("-") ? "_" : "-"}v2`;
}

const GETTERS = new Set(["getInput", "getBooleanInput", "getMultilineInput"]);

/** The name literals of every `getInput("<name>")` in the run's files under `dir`. */
function inputReads(a: Analysis, dir: string, name: string): Node[] {
  const out: Node[] = [];
  for (const [file, state] of a.files) {
    if (!file.startsWith(dir + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`) || !state.text.includes(name)) continue;
    for (const call of state.sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      const called = Node.isIdentifier(callee) ? callee.getText() : Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined;
      const arg = call.getArguments()[0];
      if (!called || !GETTERS.has(called) || !arg) continue;
      if ((Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg)) && arg.getLiteralValue() === name) out.push(arg);
    }
  }
  return out;
}

const V1_BASE_VALUE = new RegExp(`^https?://${V1_HOST.replace(/\./g, "\\.")}/v1(/?)$`);

/**
 * The action input behind a base overridden by `core.getInput(…)` whose action.yml default is the
 * v1 base: the edits that move it (`input`), or why the base must stay v1 (`stuck`).
 * `overrides` is the base's override text (`core.getInput('api-url')`).
 */
export function actionInputDefault(a: Analysis, base: BaseSource): { input?: ActionInput; stuck?: string } | undefined {
  const names = [...(base.override ?? "").matchAll(/get(?:Boolean|Multiline)?Input\(\s*['"`]([^'"`]+)['"`]/g)].map((m) => m[1]!);
  if (!names.length) return undefined;
  const baseFile = base.literal.getSourceFile().getFilePath();
  const file = actionFile(baseFile);
  if (!file) return undefined;
  const text = readFileSync(file, "utf8");
  const inputs = declaredInputs(text);
  const yml = path.basename(file);
  for (const name of names) {
    const input = inputs.find((i) => i.name === name);
    const d = input?.default;
    if (!input || !d || !d.value.includes(`${V1_HOST}/v1`)) continue;
    const given = `${yml} gives the input ${name} the v1 base as its default (${yml}:${d.line}), and the runner passes it to core.getInput('${name}') when a workflow does not set it`;
    const slash = V1_BASE_VALUE.exec(d.value)?.[1];
    if (slash === undefined) return { stuck: `${given}; that default is not the v1 base alone (${d.value}): set it to the v2 base, then run again` };
    // Without a run that writes action.yml (jscodeshift's one file), or with one it may not write, the base stays v1.
    if (!a.writesBeside) return { stuck: `${given}: set that default to the v2 base, then run again` };
    if (!writable(file)) return { stuck: `${given}, and ${yml} is read-only: make it writable, then run again` };
    const renamed = renamedInput(name);
    if (inputs.some((i) => i.name === renamed)) return { stuck: `${given}, and it declares an input ${renamed} too (the name the migrated input would take): rename the input and its default by hand, then run again` };
    const frozen = inputReads(a, path.dirname(file), name).filter((r) => a.frozen.has(r.getSourceFile().getFilePath()));
    if (frozen.length) return { stuck: `${given}, and a file that reads it may not be written (${frozen[0]!.getSourceFile().getBaseName()})` };
    const edit = (start: number, end: number, to: string): Edit => ({ file, start, end, text: to, old: text.slice(start, end) });
    const yaml = [edit(input.key.start, input.key.end, renamed), edit(d.start, d.end, `${V2_BASE}${slash}`)];
    const reads = inputReads(a, path.dirname(file), name).map((r): Edit => ({ file: r.getSourceFile().getFilePath(), start: r.getStart() + 1, end: r.getEnd() - 1, text: renamed, old: name }));
    return { input: { file, text, line: d.line, name, renamed, yaml, reads } };
  }
  return undefined;
}

function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Applies a flipped base's input edits: the getInput reads in the sources, action.yml beside them. */
export function moveInput(a: Analysis, input: ActionInput, addEdit: (e: Edit) => void): void {
  for (const e of input.reads) addEdit(e);
  const beside = (a.besideEdits ??= new Map());
  const entry = beside.get(input.file) ?? { text: input.text, edits: [] };
  entry.edits.push(...input.yaml);
  beside.set(input.file, entry);
}

/** What the base's mark says once its input moved (as an environment default's rename does). */
export function movedInputMark(input: ActionInput): { reason: string; advice: string } {
  const yml = path.basename(input.file);
  return {
    reason: `the v2 base is now the default of the action input ${input.renamed} (${yml}:${input.line}), not ${input.name}: workflows set ${input.name} to the v1 API or to a gateway's /v1, and v2 paths sent there fail (the runner now warns about ${input.name} and ignores it)`,
    advice: `in every workflow that gives this action ${input.name}, set ${input.renamed} to ${V2_BASE} (or leave it unset) and remove ${input.name}`,
  };
}

/** What a base kept v1 says of its input's default, which stays v1 with it. */
export function keptInputNote(input: ActionInput): string {
  const yml = path.basename(input.file);
  return `; ${yml} keeps the v1 default of the input ${input.name} (${yml}:${input.line}) with it`;
}

/**
 * Bases read through the same input move together: renaming it for one that flips while another
 * stays v1 would give the v1 one's calls the v2 default. Returns whether a verdict changed.
 */
export function keepInputsTogether(a: Analysis, verdicts: Map<Node, { flips: boolean; unfollowed: Node[]; because?: string }>): boolean {
  const groups = new Map<string, BaseSource[]>();
  for (const base of a.bases.values()) if (base.input) groups.set(`${base.input.file}:${base.input.name}`, [...(groups.get(`${base.input.file}:${base.input.name}`) ?? []), base]);
  let changed = false;
  for (const bases of groups.values()) {
    const kept = bases.find((b) => !verdicts.get(b.literal)?.flips);
    if (!kept) continue;
    const at = `${kept.literal.getSourceFile().getBaseName()}:${kept.literal.getStartLineNumber()}`;
    for (const b of bases) {
      if (!verdicts.get(b.literal)?.flips) continue;
      verdicts.set(b.literal, { flips: false, unfollowed: [], because: `another base read through the input ${b.input!.name} (${at}) stays v1, and the input moves for both or neither` });
      changed = true;
    }
  }
  return changed;
}
