// The audit of files the engine does not parse (Python, shell, YAML, .env, Markdown, Terraform,
// Dockerfiles, JSON, …): every v1 address in them is a finding for review, with the v1
// operation when the URL and the command around it name one. Read-only: rewrite never edits them.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { matchV1, V2_BASE, V2_ORIGIN, type OperationMapping } from "../mappings/index.ts";
import { mightUseV1Buffer } from "./prefilter.ts";
import { redact, REDACTED } from "./redact.ts";
import { findV1Urls, methodInBlock, methodOnLine, type TextUrl } from "./text-urls.ts";
import type { Category, Finding } from "./types.ts";
import { SequentialReader } from "./source-files.ts";
import { walkSources, type TreeListing } from "./walk.ts";

/** Larger files (data dumps, bundles) are skipped: they are not where a client's API calls live. */
export const TEXT_FILE_MAX_BYTES = 2 * 1024 * 1024;
/** A NUL byte this early means binary (the heuristic git and grep use). */
const BINARY_SNIFF_BYTES = 8192;
const SNIPPET_MAX = 240;

/** What a file is, for the finding's reason; by extension, then by well-known name. */
const KIND_BY_EXT: Record<string, string> = {
  py: "Python file", pyi: "Python file", ipynb: "Jupyter notebook",
  sh: "shell script", bash: "shell script", zsh: "shell script", fish: "shell script", ksh: "shell script",
  ps1: "PowerShell script", psm1: "PowerShell script", bat: "batch file", cmd: "batch file",
  yaml: "YAML file", yml: "YAML file", json: "JSON file", jsonc: "JSON file", json5: "JSON file",
  toml: "TOML file", ini: "config file", cfg: "config file", conf: "config file", properties: "config file", env: ".env file",
  md: "Markdown document", mdx: "Markdown document", markdown: "Markdown document", rst: "reStructuredText document", adoc: "AsciiDoc document", txt: "text file",
  tf: "Terraform file", tfvars: "Terraform file", hcl: "HCL file",
  http: "HTTP request file", rest: "HTTP request file",
  rb: "Ruby file", go: "Go file", java: "Java file", kt: "Kotlin file", kts: "Kotlin file", scala: "Scala file", groovy: "Groovy file", gradle: "Gradle file",
  php: "PHP file", cs: "C# file", fs: "F# file", rs: "Rust file", swift: "Swift file", dart: "Dart file", lua: "Lua file", r: "R file", pl: "Perl file", ex: "Elixir file", exs: "Elixir file",
  c: "C file", h: "C header", cpp: "C++ file", hpp: "C++ header",
  html: "HTML file", htm: "HTML file", xml: "XML file", vue: "Vue component", svelte: "Svelte component", astro: "Astro component", sql: "SQL file",
};
const KIND_BY_NAME: Record<string, string> = {
  dockerfile: "Dockerfile", containerfile: "Dockerfile", makefile: "Makefile", gnumakefile: "Makefile", jenkinsfile: "Jenkinsfile",
  procfile: "Procfile", vagrantfile: "Vagrantfile", gemfile: "Ruby file", rakefile: "Ruby file", ".envrc": ".env file", ".npmrc": "config file",
};
/** The engine's files (JavaScript and TypeScript): audited by the engine, not here. */
const ENGINE_SOURCE = /\.(?:[mc]?[jt]sx?)$/i;

/** The kind of text file a name denotes, or undefined for names the text audit does not read. */
export function textFileKind(name: string): string | undefined {
  const base = path.basename(name).toLowerCase();
  if (ENGINE_SOURCE.test(base)) return undefined;
  if (KIND_BY_NAME[base]) return KIND_BY_NAME[base];
  // Dockerfile.prod, prod.Dockerfile, Makefile.ci; .env, .env.local, .env.example, prod.env
  if (/^(?:docker|container)file\.|\.(?:docker|container)file$/.test(base)) return "Dockerfile";
  if (/^makefile\./.test(base)) return "Makefile";
  if (base === ".env" || base.startsWith(".env.")) return ".env file";
  const ext = /\.([a-z0-9]+)$/.exec(base)?.[1];
  return ext ? KIND_BY_EXT[ext] : undefined;
}

/** Text files (by name) under the given paths; an explicitly named file is read whatever its name, unless it is the engine's. */
export async function collectTextFiles(paths: string[], cwd = process.cwd(), listing?: TreeListing): Promise<string[]> {
  const out = new Set<string>();
  for (const p of paths.length ? paths : ["."]) {
    const abs = path.resolve(cwd, p);
    if (!existsSync(abs)) continue; // listSources (tree-scan.ts) has already reported it
    if (statSync(abs).isFile()) {
      if (!ENGINE_SOURCE.test(abs)) out.add(abs);
      continue;
    }
    // (The engine's sources, most names of a tree, are ruled out on the name as listed: no basename, no lower-casing.)
    for (const f of await walkSources(abs, (name) => !ENGINE_SOURCE.test(name) && textFileKind(name) !== undefined, listing)) out.add(f);
  }
  return [...out].sort();
}

export interface TextAudit {
  /** Files read (not skipped as binary or too large). */
  scanned: number;
  /** Files skipped: binary content or over TEXT_FILE_MAX_BYTES. */
  skipped: { file: string; why: string }[];
  findings: Finding[];
  /** Display names of the files with findings, in order. */
  filesWithFindings: string[];
}

/** Reads and scans the files, one after another through one reused buffer (source-files.ts SequentialReader); findings are relative to root. */
export async function auditTextFiles(files: readonly string[], root: string): Promise<TextAudit> {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join("/");
  const audit: TextAudit = { scanned: 0, skipped: [], findings: [], filesWithFindings: [] };
  const reader = new SequentialReader(TEXT_FILE_MAX_BYTES);
  for (const file of files) {
    const read = reader.read(file);
    if (!read.ok) {
      if (read.skip.why === "too-large") audit.skipped.push({ file: rel(file), why: `larger than ${TEXT_FILE_MAX_BYTES / 1024 / 1024} MB` });
      continue; // unreadable: not reported here, as before
    }
    const buf = read.buf;
    if (buf.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      audit.skipped.push({ file: rel(file), why: "binary" });
      continue;
    }
    audit.scanned++;
    const found = mightUseV1Buffer(buf) ? scanTextFile(rel(file), buf.toString("utf8")) : [];
    if (!found.length) continue;
    audit.findings.push(...found);
    audit.filesWithFindings.push(found[0]!.file);
  }
  audit.skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return audit;
}

/** Every v1 address in one text file. `displayName` names the file in findings and picks its kind, unless `kindText` says it (with its article). */
export function scanTextFile(displayName: string, text: string, kindText?: string): Finding[] {
  const kind = kindText ?? withArticle(textFileKind(displayName) ?? "text file");
  const lines = text.split(/\r?\n/);
  const findings: Finding[] = [];
  lines.forEach((line, i) => {
    const urls = findV1Urls(line);
    if (!urls.length) return;
    const command = logicalLine(lines, i);
    for (const url of urls) {
      const method = methodOnLine(command.text, command.offset + url.start) ?? methodInBlock(lines, i);
      const described = describe(url, method, kind);
      const input = url.path === "" ? workflowInput(displayName, lines, i) : undefined;
      if (input) Object.assign(described, input);
      findings.push({ file: displayName, line: i + 1, column: url.start + 1, ...described, snippet: snippetOf(line, url) });
    }
  });
  return findings;
}

/**
 * A workflow step giving an action the v1 base as an input (`with:` → `api-url: https://…/v1`): the
 * action sends its own paths there. An action the rewrite migrated reads the v2 base from a
 * renamed input (`api-url-v2`: engine/action-inputs.ts) and ignores this one.
 */
function workflowInput(displayName: string, lines: string[], i: number): Pick<Finding, "reason" | "advice"> | undefined {
  if (!/(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(displayName)) return undefined;
  const key = /^(\s*)['"]?([\w-]+)['"]?\s*:/.exec(lines[i]!);
  if (!key) return undefined;
  const indent = key[1]!.length;
  for (let k = i - 1; k >= 0; k--) {
    const l = lines[k]!;
    if (!l.trim() || l.trim().startsWith("#")) continue;
    const at = /^\s*(?:- )?/.exec(l)![0].length;
    if (at >= indent) continue;
    if (!/^\s*(?:- )?with\s*:\s*(#.*)?$/.test(l)) return undefined;
    const name = key[2]!;
    return {
      reason: `v1 base URL given to the action input ${name} in a GitHub workflow: the action sends its requests there`,
      advice: `when the action calls v2, give it the v2 base ${V2_BASE} or nothing (an action v2-bridge migrated reads it as ${name}${name.includes("_") && !name.includes("-") ? "_" : "-"}v2 and ignores ${name})`,
    };
  }
  return undefined;
}

/** The command a line belongs to: lines joined across `\` (sh), `` ` `` (PowerShell) and `^` (cmd) continuations. */
function logicalLine(lines: string[], i: number): { text: string; offset: number } {
  const continues = (l: string | undefined) => l !== undefined && /(?:\\|`|\^)\s*$/.test(l);
  let first = i;
  while (first > 0 && continues(lines[first - 1])) first--;
  let last = i;
  while (last < lines.length - 1 && continues(lines[last])) last++;
  if (first === last) return { text: lines[i]!, offset: 0 };
  const parts = lines.slice(first, last + 1).map((l, k) => (k < last - first ? l.replace(/(?:\\|`|\^)\s*$/, "") : l));
  const offset = parts.slice(0, i - first).reduce((n, p) => n + p.length + 1, 0);
  return { text: parts.join(" "), offset };
}

/** "a shell script", "an HTTP request file". */
function withArticle(kind: string): string {
  return (/^(?:[aeiou]|HTTP|HCL|HTML|XML|SQL|R |F#)/i.test(kind) ? "an " : "a ") + kind;
}

type Described = Pick<Finding, "operation" | "v1" | "v2" | "category" | "reason" | "advice" | "subject">;

function describe(url: TextUrl, method: string | undefined, kind: string): Described {
  const none = { operation: null, v1: null, v2: null, category: "review" as Category, subject: "url" as const };
  if (url.path === null) {
    return { ...none, reason: `v1 host in ${kind} (not under /v1)`, advice: `check whether it is a v1 API address; v2 lives at ${V2_BASE}` };
  }
  const path = url.path;
  if (path === "" || url.continued) {
    const what = path === "" ? "v1 base URL" : `v1 URL ${path} extended at run time`;
    return { ...none, ...(path === "" ? { subject: "base" as const } : {}), reason: `${what} in ${kind}`, advice: `use the v2 base ${V2_BASE} and the v2 path of each v1 operation called through it (docs/mapping.md)` };
  }
  const all = candidates(path);
  const ops = method ? all.filter((op) => op.v1.method === method) : all;
  if (ops.length !== 1) {
    const why = !all.length
      ? `${path} is not a v1 operation path`
      : !ops.length
        ? `${method} is not a v1 method on ${path} (v1 has ${all.map((o) => o.v1.method).join(", ")})`
        : `v1 ${ops.map((o) => o.key).join(" / ")}; the HTTP method is not named next to it`;
    return { ...none, reason: `v1 URL in ${kind} (${why})`, advice: `use the v2 path of the v1 operation it calls (docs/mapping.md) on the v2 base ${V2_BASE}` };
  }
  const op = ops[0]!;
  const v1 = { method: op.v1.method, path: op.v1.path };
  const reason = `v1 URL in ${kind} (${op.key})`;
  if (op.status === "no-equivalent") {
    return { operation: op.key, v1, v2: null, category: "no-equivalent", reason: `${reason}: ${op.decision?.message ?? "no v2 equivalent"}`, advice: op.decision?.advice ?? "see docs/mapping.md" };
  }
  if (!op.v2) {
    return { operation: op.key, v1, v2: null, category: "review", reason: `${reason}: no v2 operation (${op.summary})`, advice: op.decision?.advice ?? `see the v2 API at ${V2_BASE}` };
  }
  const v2 = { method: op.v2.method, path: op.v2.path };
  return {
    operation: op.key,
    v1,
    v2,
    category: "review",
    reason,
    advice: `call v2 ${v2.method} ${V2_ORIGIN}${v2.path} (v2 base ${V2_BASE}); check the request body and response shape (docs/mapping.md)`,
  };
}

/** The distinct v1 operations a path can be, over all methods (like the engine's uniqueMatches). */
function candidates(p: string): OperationMapping[] {
  const seen = new Map<string, OperationMapping>();
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
    const m = matchV1(method, p);
    if (m) seen.set(m.operation.key, m.operation);
  }
  return [...seen.values()];
}

/** The trimmed line, redacted; long lines (minified JSON) cut to a window around the URL. */
function snippetOf(line: string, url: TextUrl): string {
  let text = line.trim();
  if (text.length > SNIPPET_MAX) {
    const from = Math.max(0, url.start - 60);
    text = (from > 0 ? "…" : "") + line.slice(from, from + SNIPPET_MAX).trim() + (from + SNIPPET_MAX < line.length ? "…" : "");
  }
  return redactText(text);
}

/**
 * redact() plus what scripts and configs write without quotes: `RUNPOD_API_KEY=…`,
 * `--token …`, `?api_key=…`.
 */
export function redactText(text: string): string {
  return redact(text)
    .replace(/(\b[\w-]*(?:api[_-]?key|apikey|token|secret|password)[\w-]*\s*[=:]\s*)(?!["'`<$])[^\s&"'`,;]{4,}/gi, `$1${REDACTED}`)
    .replace(/(--?(?:api[_-]?key|token|secret|password)\s+)(?!["'`<$-])\S{4,}/gi, `$1${REDACTED}`);
}
