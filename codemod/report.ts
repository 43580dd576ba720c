// Audit output: text for people, JSON for scripts (the report tool reads it), SARIF 2.1.0 for
// code-scanning UIs. All three are views of the same findings.
import { operations } from "../mappings/table.ts";
import type { Category, Finding } from "./types.ts";
import type { RunResult } from "./project.ts";
import { V2_OPENAPI_URL } from "../mappings/bases.ts";
import type { Audit, Subject } from "../formats/audit.ts";
import { SUBJECTS } from "../formats/audit-values.ts";
import { VERSION } from "../product/package-info.ts";

/** The audit JSON document; its one definition is the schema in formats/audit.ts. */
export type AuditJson = Audit;

export function auditJson(result: RunResult, now = new Date()): AuditJson {
  return {
    tool: "v2-bridge",
    version: 1,
    toolVersion: VERSION,
    generatedAt: now.toISOString(),
    root: result.root,
    summary: {
      files: result.summary.files,
      filesWithFindings: result.summary.filesWithFindings,
      findings: result.findings.length,
      byCategory: { ...result.summary.byCategory },
    },
    findings: result.findings.map((f) => ({
      file: f.file,
      line: f.line,
      column: f.column,
      operation: f.operation,
      v1: f.v1,
      v2: f.v2,
      category: f.category,
      reason: f.reason,
      advice: f.advice,
      snippet: f.snippet,
      ...(f.subject ? { subject: f.subject } : {}),
      ...(f.problems?.length ? { problems: f.problems.map(({ reason, advice }) => ({ reason, advice })) } : {}),
    })),
  };
}

const LEVEL: Record<Category, "note" | "warning" | "error"> = { auto: "note", review: "warning", "no-equivalent": "error" };

/** How the text names a finding without an operation: by what it is about. */
const SUBJECT_LABEL: Record<Subject, string> = {
  call: "v1 call, operation unknown",
  url: "v1 URL, operation unknown",
  base: "v1 base URL",
  "error-read": "v1 error read",
  hook: "client hook",
  types: "v1 paths types",
  file: "file not processed",
};

/** The SARIF rule of a finding without an operation: one per subject (`v1-base-url` also for findings that name none). */
const SUBJECT_RULE: Record<Subject, string> = {
  call: "v1-call-unknown-operation",
  url: "v1-url-unknown-operation",
  base: "v1-base-url",
  "error-read": "v1-error-read",
  hook: "v1-client-hook",
  types: "v1-paths-types",
  file: "file-not-processed",
};
const SUBJECT_TEXT: Record<Subject, string> = {
  call: "A call of the retired v1 REST API whose operation is not known statically",
  url: "A v1 URL whose operation is not known statically",
  base: "An address of the retired v1 REST API",
  "error-read": "A read of a v1 error field (message, error) on the failure path of calls now on v2",
  hook: "An HTTP client hook the codemod cannot read, on the failure path of calls now on v2",
  types: "openapi-fetch path types that must come from the v2 document",
  file: "A file the codemod did not process",
};
// A finding naming several operations (`DeletePod|DeleteEndpoint`, a computed path) is a call whose operation is not one rule.
const ruleOf = (f: Finding) => (f.operation && !f.operation.includes("|") ? f.operation : SUBJECT_RULE[f.subject ?? (f.operation ? "call" : "base")]);

export function auditSarif(result: RunResult, toolVersion = VERSION): object {
  const ruleIds = [...SUBJECTS.map((s) => SUBJECT_RULE[s]), ...operations.map((o) => o.key)];
  const rules = ruleIds.map((id) => {
    const op = operations.find((o) => o.key === id);
    const subject = SUBJECTS.find((s) => SUBJECT_RULE[s] === id);
    return {
      id,
      name: id.replace(/[^A-Za-z0-9]/g, ""),
      shortDescription: { text: op ? `v1 ${op.v1.method} ${op.v1.path}` : SUBJECT_LABEL[subject!] },
      fullDescription: { text: op ? (op.v2 ? `${op.summary}: v2 ${op.v2.method} ${op.v2.path}` : `${op.summary}: no v2 equivalent`) : SUBJECT_TEXT[subject!] },
      helpUri: V2_OPENAPI_URL,
      defaultConfiguration: { level: op?.status === "no-equivalent" ? "error" : "warning" },
    };
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "v2-bridge", version: toolVersion, informationUri: V2_OPENAPI_URL, rules } },
        originalUriBaseIds: { ROOT: { uri: pathToUri(result.root) } },
        results: result.findings.map((f) => ({
          ruleId: ruleOf(f),
          ruleIndex: Math.max(0, ruleIds.indexOf(ruleOf(f))),
          level: LEVEL[f.category],
          message: { text: `[${f.category}] ${f.reason}. ${f.advice}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: f.file, uriBaseId: "ROOT" },
                region: { startLine: f.line, startColumn: f.column, snippet: { text: f.snippet } },
              },
            },
          ],
          properties: { category: f.category, v1: f.v1, v2: f.v2 },
        })),
      },
    ],
  };
}

function pathToUri(p: string): string {
  const withSlash = p.endsWith("/") ? p : p + "/";
  return "file://" + withSlash.split("/").map(encodeURIComponent).join("/");
}

export function findingLabel(f: Finding): string {
  // A site marked away from its call names the place too: `StopPod → POST /v2/pods/{id}/action (v1 error read)`.
  if (f.operation) return `${f.operation}${f.v2 ? ` → ${f.v2.method} ${f.v2.path}` : ""}${f.subject ? ` (${SUBJECT_LABEL[f.subject]})` : ""}`;
  return f.subject ? SUBJECT_LABEL[f.subject] : "v2-migration mark";
}

export function auditText(result: RunResult): string {
  const lines: string[] = [];
  for (const f of result.findings) {
    const op = findingLabel(f);
    lines.push(`${f.file}:${f.line}:${f.column}  ${f.category.padEnd(13)} ${op}`);
    lines.push(`    ${f.reason}`);
    if (f.category !== "auto") lines.push(`    advice: ${f.advice}`);
    lines.push(`    ${f.snippet}`);
  }
  for (const e of result.parseErrors) lines.push(`${e.file}: could not parse (${e.error}); left alone`);
  const s = result.summary;
  lines.push(
    `${s.files} files scanned, ${s.filesWithFindings} with v1 usage: ${result.findings.length} findings (${s.byCategory.auto} auto, ${s.byCategory.review} review, ${s.byCategory["no-equivalent"]} no-equivalent)`,
  );
  return lines.join("\n") + "\n";
}
