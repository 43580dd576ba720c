// The audit of non-JS files: v1 URLs in Python, shell, YAML, .env, Markdown, Terraform, Dockerfile
// and .http files are review findings with the v1 operation; binary and oversized files are
// skipped; rewrite leaves every one of them byte for byte; keys never reach the report.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCodemod, type RunResult } from "../../codemod/project.ts";
import { auditSarif, auditText } from "../../codemod/report.ts";
import { scanTextFile, TEXT_FILE_MAX_BYTES, textFileKind } from "../../codemod/text-files.ts";
import type { Finding } from "../../codemod/types.ts";
import { BUILT_CLI } from "../helpers/cli.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "rpa_7Hq2LmX9vBn4Kp8RzT3w";

const FILES: Record<string, string> = {
  "scripts/pods.py": `import os
import requests

def get_pod(pod_id):
    return requests.get(f"https://rest.runpod.io/v1/pods/{pod_id}", headers={"Authorization": "Bearer ${KEY}"})

def list_pods():
    return requests.get("https://rest.runpod.io/v1/pods").json()

def reset(pod_id):
    requests.post("https://rest.runpod.io/v1/pods/" + pod_id + "/reset")
`,
  "scripts/start.sh": `#!/bin/sh
set -eu
curl -X POST https://rest.runpod.io/v1/pods/$POD_ID/start -H "Authorization: Bearer $RUNPOD_API_KEY"
curl --request DELETE \\
  --url "https://rest.runpod.io/v1/templates/\${TEMPLATE_ID}" \\
  --header "Authorization: Bearer $RUNPOD_API_KEY"
RUNPOD_API_KEY=${KEY} curl -s https://rest.runpod.io/v1/endpoints
`,
  "deploy/values.yaml": `runpod:
  apiUrl: https://rest.runpod.io/v1
  stop:
    url: https://rest.runpod.io/v1/pods/{{ .Values.podId }}/stop
    method: POST
`,
  ".env": "RUNPOD_API_URL=https://rest.runpod.io/v1\nLOG_LEVEL=info\n",
  "docs/API.md": `# Pods

List them with [the pods endpoint](https://rest.runpod.io/v1/pods).

\`\`\`bash
curl --request POST \\
  --url https://rest.runpod.io/v1/pods/<pod-id>/reset \\
  --header 'Authorization: Bearer <your-key>'
\`\`\`
`,
  "infra/main.tf": `data "http" "pod" {
  url = "https://rest.runpod.io/v1/pods/\${var.pod_id}"
  request_headers = {
    Authorization = "Bearer \${var.runpod_api_key}"
  }
}
`,
  Dockerfile: "FROM node:20\nENV RUNPOD_API_URL=https://rest.runpod.io/v1\n",
  "api.http": "PATCH https://rest.runpod.io/v1/networkvolumes/{{volumeId}}\nContent-Type: application/json\n",
  "src/client.ts": `export async function pods(): Promise<Array<{ id: string }>> {
  const res = await fetch("https://rest.runpod.io/v1/pods");
  return res.json();
}
`,
  // Not read: gitignored, and a name that is not a text file.
  ".gitignore": "ignored/\n",
  "ignored/old.sh": "curl https://rest.runpod.io/v1/pods\n",
  "notes.bin": "https://rest.runpod.io/v1/pods\n",
  "unrelated.md": "# Nothing about the v1 API here\n",
};

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

function project(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-text-"));
  temps.push(dir);
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  // Binary content under a text name (a NUL in the first 8 KB), and a text file over the size limit.
  writeFileSync(path.join(dir, "fixtures.json"), Buffer.concat([Buffer.from([0x89, 0x50, 0x00, 0x01]), Buffer.from("https://rest.runpod.io/v1/pods/abc/start")]));
  const line = '{"url": "https://rest.runpod.io/v1/pods"}\n';
  writeFileSync(path.join(dir, "dump.json"), line.repeat(Math.ceil((TEXT_FILE_MAX_BYTES + 1) / line.length)));
  return dir;
}

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const at = (findings: Finding[], file: string) => findings.filter((f) => f.file === file).map((f) => ({ line: f.line, operation: f.operation, category: f.category }));

describe("scanTextFile", () => {
  it("reads every placeholder style as a path parameter", () => {
    const styles = ["$POD_ID", "${POD_ID}", "{podId}", "<pod-id>", "{{ .id }}", "%s", ":id", "#{pod_id}", "$(POD_ID)", "{{podId}}"];
    for (const p of styles) {
      const [f] = scanTextFile("x.sh", `curl -X POST "https://rest.runpod.io/v1/pods/${p}/start"`);
      expect([p, f?.operation, f?.v2]).toEqual([p, "StartPod", { method: "POST", path: "/v2/pods/{id}/action" }]);
    }
  });

  it("takes the method from the command, the call or the block, and tries every method otherwise", () => {
    const op = (name: string, text: string) => scanTextFile(name, text).map((f) => f.operation);
    expect(op("a.sh", "curl -XDELETE https://rest.runpod.io/v1/pods/x")).toEqual(["DeletePod"]);
    expect(op("a.sh", "curl --request=PATCH https://rest.runpod.io/v1/pods/x")).toEqual(["UpdatePod"]);
    expect(op("a.sh", "curl https://rest.runpod.io/v1/pods/x")).toEqual(["GetPod"]); // curl's default
    expect(op("a.sh", "curl -d @pod.json https://rest.runpod.io/v1/pods")).toEqual(["CreatePod"]); // data without -X
    expect(op("a.py", 'httpx.delete(f"https://rest.runpod.io/v1/endpoints/{eid}")')).toEqual(["DeleteEndpoint"]);
    expect(op("a.go", 'req, _ := http.NewRequest("PATCH", "https://rest.runpod.io/v1/templates/"+id, body)')).toEqual(["UpdateTemplate"]);
    expect(op("a.ps1", "Invoke-RestMethod -Method Post -Uri https://rest.runpod.io/v1/pods/$id/stop")).toEqual(["StopPod"]);
    expect(op("a.yml", "- uri:\n    url: https://rest.runpod.io/v1/pods/{{ id }}\n    method: DELETE")).toEqual(["DeletePod"]);
    expect(op("a.http", "DELETE https://rest.runpod.io/v1/networkvolumes/{{id}}")).toEqual(["DeleteNetworkVolume"]);
    // No method anywhere: unique operations are named, ambiguous paths are not.
    expect(op("a.txt", "see https://rest.runpod.io/v1/pods/abc/start")).toEqual(["StartPod"]);
    expect(op("a.txt", "see https://rest.runpod.io/v1/pods/abc")).toEqual([null]);
    expect(scanTextFile("a.txt", "see https://rest.runpod.io/v1/pods/abc")[0]!.reason).toContain("GetPod / UpdatePod / DeletePod");
    // A method v1 does not have on the path says so.
    expect(scanTextFile("a.sh", "curl -X PUT https://rest.runpod.io/v1/pods/abc")[0]!.reason).toContain("PUT is not a v1 method on /pods/abc (v1 has GET, PATCH, DELETE)");
  });

  it("names the action input a workflow step gives the v1 base (with:), and only there", () => {
    const workflow = ["jobs:", "  gpu:", "    env:", "      RUNPOD_API_URL: https://rest.runpod.io/v1", "    steps:", "      - uses: ./", "        with:", "          api-url: 'https://rest.runpod.io/v1'", "          api_base: https://rest.runpod.io/v1/", "      - run: echo https://rest.runpod.io/v1"].join("\n");
    const found = scanTextFile(".github/workflows/ci.yml", workflow);
    expect(found.map((f) => f.line)).toEqual([4, 8, 9, 10]);
    expect(found[0]!.reason).toBe("v1 base URL in a YAML file");
    expect(found[1]!.reason).toContain("given to the action input api-url in a GitHub workflow");
    expect(found[1]!.advice).toContain("reads it as api-url-v2");
    expect(found[2]!.advice).toContain("reads it as api_base_v2");
    expect(found[3]!.reason).toBe("v1 base URL in a YAML file");
    // Outside .github/workflows a with: block is any YAML.
    expect(scanTextFile("deploy/ci.yml", workflow)[1]!.reason).toBe("v1 base URL in a YAML file");
  });

  it("reports the base, the bare host and URLs joined at run time; ignores look-alike hosts", () => {
    const found = scanTextFile(
      "config.ini",
      [
        "base = https://rest.runpod.io/v1",
        "host = rest.runpod.io",
        "a = https://rest.runpod.io.example.com/v1/pods, https://notrest.runpod.io/v1, https://api.runpod.io/v2/pods",
        'url = "https://rest.runpod.io/v1" + path',
      ].join("\n"),
    );
    expect(found.map((f) => [f.line, f.column, f.operation, f.reason])).toEqual([
      [1, 8, null, "v1 base URL in a config file"],
      [2, 8, null, "v1 host in a config file (not under /v1)"],
      [4, 8, null, "v1 base URL in a config file"],
    ]);
    expect(found.every((f) => f.category === "review" && f.advice.includes("https://api.runpod.io/v2"))).toBe(true);
  });

  it("stops at quotes, brackets and sentence punctuation; finds several URLs on a line", () => {
    const found = scanTextFile("README.md", "Call `GET https://rest.runpod.io/v1/pods`, then (https://rest.runpod.io/v1/pods/abc/stop). Done: https://rest.runpod.io/v1/templates/t1.");
    expect(found.map((f) => [f.column, f.operation])).toEqual([
      [11, "ListPods"],
      [50, "StopPod"],
      [98, null], // a template id path without a method: Get/Update/Delete
    ]);
  });

  it("redacts keys on the line, quoted or not", () => {
    const found = scanTextFile(
      "run.sh",
      [
        `curl -H "Authorization: Bearer ${KEY}" https://rest.runpod.io/v1/pods`,
        `RUNPOD_API_KEY=${KEY} curl https://rest.runpod.io/v1/pods`,
        `curl "https://rest.runpod.io/v1/pods?api_key=${KEY}"`,
        `python run.py --token ${KEY} --url https://rest.runpod.io/v1/pods`,
      ].join("\n"),
    );
    expect(found).toHaveLength(4);
    for (const f of found) {
      expect(f.snippet).not.toContain(KEY);
      expect(f.snippet).toContain("<redacted>");
    }
  });

  it("names the kind of file, by extension and by well-known name", () => {
    expect(["x.py", "x.sh", "x.yaml", ".env", ".env.production", "README.md", "main.tf", "Dockerfile", "Dockerfile.prod", "Makefile", "x.ts", "x.mjs", "x.png"].map(textFileKind)).toEqual([
      "Python file", "shell script", "YAML file", ".env file", ".env file", "Markdown document", "Terraform file", "Dockerfile", "Dockerfile", "Makefile", undefined, undefined, undefined,
    ]);
  });
});

describe("audit of a tree with text files", () => {
  let dir: string;
  let result: RunResult;
  beforeAll(async () => {
    dir = project();
    result = await runCodemod({ paths: [dir], textFiles: true });
  });

  it("finds the v1 operations in each kind of file, on the right lines", () => {
    const f = result.findings;
    expect(at(f, "scripts/pods.py")).toEqual([
      { line: 5, operation: "GetPod", category: "review" },
      { line: 8, operation: "ListPods", category: "review" },
      { line: 11, operation: "ResetPod", category: "no-equivalent" },
    ]);
    expect(at(f, "scripts/start.sh")).toEqual([
      { line: 3, operation: "StartPod", category: "review" },
      { line: 5, operation: "DeleteTemplate", category: "review" },
      { line: 7, operation: "ListEndpoints", category: "review" },
    ]);
    expect(at(f, "deploy/values.yaml")).toEqual([
      { line: 2, operation: null, category: "review" },
      { line: 4, operation: "StopPod", category: "review" },
    ]);
    expect(at(f, ".env")).toEqual([{ line: 1, operation: null, category: "review" }]);
    expect(at(f, "docs/API.md")).toEqual([
      { line: 3, operation: null, category: "review" }, // ListPods or CreatePod: prose names no method
      { line: 7, operation: "ResetPod", category: "no-equivalent" },
    ]);
    expect(at(f, "infra/main.tf")).toEqual([{ line: 2, operation: "GetPod", category: "review" }]); // data "http" is a GET
    expect(at(f, "Dockerfile")).toEqual([{ line: 2, operation: null, category: "review" }]);
    expect(at(f, "api.http")).toEqual([{ line: 1, operation: "UpdateNetworkVolume", category: "review" }]);
    // The engine still handles the TypeScript file.
    expect(at(f, "src/client.ts")).toEqual([{ line: 2, operation: "ListPods", category: "auto" }]);
    // Gitignored, not a text name, binary, too large: not reported.
    for (const name of ["ignored/old.sh", "notes.bin", "fixtures.json", "dump.json"]) expect(at(f, name)).toEqual([]);
    expect(result.skipped).toEqual([
      { file: "dump.json", why: "larger than 2 MB" },
      { file: "fixtures.json", why: "binary" },
    ]);
  });

  it("gives v1 and v2 of the operation, the reason and the advice", () => {
    const start = result.findings.find((x) => x.operation === "StartPod" && x.file === "scripts/start.sh")!;
    expect(start).toMatchObject({
      column: 14,
      v1: { method: "POST", path: "/pods/{podId}/start" },
      v2: { method: "POST", path: "/v2/pods/{id}/action" },
      reason: "v1 URL in a shell script (StartPod)",
    });
    expect(start.advice).toContain("POST https://api.runpod.io/v2/pods/{id}/action");
    expect(start.snippet).toBe('curl -X POST https://rest.runpod.io/v1/pods/$POD_ID/start -H "Authorization: Bearer $RUNPOD_API_KEY"');
    const reset = result.findings.find((x) => x.operation === "ResetPod" && x.file === "docs/API.md")!;
    expect(reset).toMatchObject({ v1: { method: "POST", path: "/pods/{podId}/reset" }, v2: null });
    expect(reset.reason).toMatch(/^v1 URL in a Markdown document \(ResetPod\): pod reset has no v2 equivalent/);
  });

  it("sorts findings by file and counts them in the summary; no key anywhere in the reports", () => {
    const files = result.findings.map((f) => f.file);
    expect(files).toEqual([...files].sort());
    const s = result.summary;
    expect(s.filesWithFindings).toBe(9);
    expect(s.byCategory).toEqual({
      auto: result.findings.filter((f) => f.category === "auto").length,
      review: result.findings.filter((f) => f.category === "review").length,
      "no-equivalent": 2,
    });
    expect(s.byCategory.auto + s.byCategory.review + s.byCategory["no-equivalent"]).toBe(result.findings.length);
    const text = auditText(result);
    const sarif = JSON.stringify(auditSarif(result));
    expect(text).toContain("scripts/start.sh:3:14  review        StartPod → POST /v2/pods/{id}/action");
    expect(sarif).toContain('"uri":"infra/main.tf"');
    for (const out of [text, sarif, JSON.stringify(result)]) expect(out).not.toContain(KEY);
  });

  it("only the audit reads text files: rewrite --write leaves each of them byte-identical", async () => {
    const work = project();
    const names = Object.keys(FILES).filter((n) => !n.endsWith(".ts")).concat(["fixtures.json", "dump.json"]);
    const before = new Map(names.map((n) => [n, sha(path.join(work, n))]));
    const rewritten = await runCodemod({ paths: [work], write: true });
    expect(rewritten.findings.every((f) => f.file.endsWith(".ts"))).toBe(true);
    expect(rewritten.summary.filesChanged).toBe(1);
    for (const n of names) expect([n, sha(path.join(work, n))]).toEqual([n, before.get(n)]);
    expect(readFileSync(path.join(work, "src/client.ts"), "utf8")).toContain("https://api.runpod.io/v2/pods");
  });

  it("runs through the real CLI: exit 1, JSON with the text-file findings, the skipped large file on stderr", async () => {
    const run = promisify(execFile);
    const out = await run(process.execPath, [BUILT_CLI, "audit", dir, "--format", "json", "--no-progress"], { cwd: ROOT, timeout: 60_000 }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(out.code).toBe(1);
    const json = JSON.parse(out.stdout);
    expect(json.summary.byCategory["no-equivalent"]).toBe(2);
    expect(json.findings.map((f: Finding) => `${f.file}:${f.line} ${f.operation}`)).toEqual(expect.arrayContaining(["scripts/pods.py:5 GetPod", "scripts/start.sh:3 StartPod", ".env:1 null", "infra/main.tf:2 GetPod"]));
    expect(out.stdout).not.toContain(KEY);
    expect(out.stderr).toContain("dump.json: not read (larger than 2 MB)");
  });

  it("--no-text-files keeps the audit to JavaScript and TypeScript", async () => {
    const { audit } = await import("../../cli/audit-command.ts");
    const chunks: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((c: string) => (chunks.push(String(c)), true)) as typeof process.stdout.write;
    try {
      expect(await audit([dir], { format: "json", progress: false, textFiles: false })).toBe(1);
    } finally {
      process.stdout.write = write;
    }
    expect(JSON.parse(chunks.join("")).findings.map((f: Finding) => f.file)).toEqual(["src/client.ts"]);
  });
});
