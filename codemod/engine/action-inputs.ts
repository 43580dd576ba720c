// A GitHub Action reads its inputs with `core.getInput('name')`, and the runner gives an input the
// workflow leaves unset the default its action.yml declares (`inputs.<name>.default`). A base
// read as `core.getInput('api-url') || DEFAULT` therefore never reaches DEFAULT while action.yml
// declares the v1 base as that input's default: flipping DEFAULT alone would send v2 paths to v1.
// The codemod does not edit action.yml (text files are audited, not rewritten), so such a base
// stays v1 until the default there is changed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { V1_HOST } from "../../mappings/bases.ts";
import { manifestsAbove } from "./package-root.ts";

/** The action's metadata file for a source file: action.yml / action.yaml in its package's folder. */
function actionFile(file: string): string | undefined {
  const dir = manifestsAbove(file).next().value?.dir;
  for (const name of ["action.yml", "action.yaml"]) if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  return undefined;
}

/** The line (1-based) and value of `inputs.<name>.default` in an action.yml, read by indentation. */
function inputDefault(text: string, name: string): { line: number; value: string } | undefined {
  const lines = text.split(/\r?\n/);
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  const key = (l: string) => /^\s*['"]?([^'":#]+?)['"]?\s*:/.exec(l)?.[1];
  const at = lines.findIndex((l) => /^inputs\s*:\s*$/.test(l));
  if (at < 0) return undefined;
  let inInput = -1;
  for (let i = at + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (!l.trim() || l.trim().startsWith("#")) continue;
    if (indent(l) === 0) break;
    if (inInput < 0 || indent(l) <= inInput) inInput = key(l) === name ? indent(l) : -1;
    else if (key(l) === "default") return { line: i + 1, value: l.replace(/^\s*default\s*:\s*/, "").replace(/\s+#.*$/, "").replace(/^['"]|['"]$/g, "") };
  }
  return undefined;
}

/**
 * Why a base overridden by `core.getInput(…)` must stay v1: the action.yml beside it gives that
 * input the v1 base as its default. `overrides` is the base's override text (`core.getInput('api-url')`).
 */
export function v1InputDefault(baseFile: string, overrides: string | undefined): string | undefined {
  const names = [...(overrides ?? "").matchAll(/getInput\(\s*['"`]([^'"`]+)['"`]/g)].map((m) => m[1]!);
  if (!names.length) return undefined;
  const file = actionFile(baseFile);
  if (!file) return undefined;
  const text = readFileSync(file, "utf8");
  for (const name of names) {
    const d = inputDefault(text, name);
    if (d && d.value.includes(`${V1_HOST}/v1`)) return `${path.basename(file)} gives the input ${name} the v1 base as its default (${path.basename(file)}:${d.line}), and the runner passes it to core.getInput('${name}') when a workflow does not set it: set that default to the v2 base, then run again`;
  }
  return undefined;
}
