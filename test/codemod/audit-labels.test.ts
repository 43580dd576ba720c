// The audit names a finding without an operation by what it is about, not "v1 base URL" for all:
// a call site whose path is computed, a base the codemod could not follow, a URL in a script, a
// client hook it cannot read. Real files on disk; the text is what `audit` prints, the JSON
// carries the same `subject`, SARIF a rule per subject. After `rewrite --write`, a finding read back from a mark keeps it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { auditJson, auditSarif, auditText } from "../../codemod/report.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-labels-"));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** Each finding's header line as `audit` prints it, without the position: `client.ts  review  v1 call, operation unknown`. */
function headers(text: string): string[] {
  return text.split("\n").flatMap((l) => {
    const m = /^(\S+):\d+:\d+\s+(\S+)\s+(.*)$/.exec(l);
    return m ? [`${m[1]}  ${m[2]}  ${m[3]}`] : [];
  });
}

const CLIENT = `const BASE = "https://rest.runpod.io/v1";
const headers = { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };

// The resource is chosen by the caller: the finding names each operation the path can match.
export async function remove(kind: string, id: string) {
  await fetch(\`\${BASE}/\${kind}/\${id}\`, { method: "DELETE", headers });
}

// A base kept in a shape the codemod does not follow.
const urls = new Map([["runpod", "https://rest.runpod.io/v1"]]);
export const baseFor = (name: string) => urls.get(name);
`;

describe("audit labels of findings without an operation", () => {
  it("a call with a computed path is a call, a base is a base, a script's URL is a URL", async () => {
    const dir = project({ "client.ts": CLIENT, "deploy.sh": "curl -X POST https://rest.runpod.io/v1/$KIND/$ID/stop\n", "README.md": "Set RUNPOD_API_URL=https://rest.runpod.io/v1\n" });
    // As \`audit\` runs it: scripts and docs too.
    const result = await runCodemod({ paths: [dir], write: false, textFiles: true });
    expect(headers(auditText(result))).toEqual([
      "README.md  review  v1 base URL",
      "client.ts  review  DeletePod|DeleteEndpoint|DeleteTemplate|DeleteNetworkVolume|DeleteContainerRegistryAuth",
      "client.ts  review  v1 base URL",
      "deploy.sh  review  v1 URL, operation unknown",
    ]);
    const json = auditJson(result);
    expect(json.findings.map((f) => [f.file, f.operation, f.subject])).toEqual([
      ["README.md", null, "base"],
      ["client.ts", "DeletePod|DeleteEndpoint|DeleteTemplate|DeleteNetworkVolume|DeleteContainerRegistryAuth", undefined],
      ["client.ts", null, "base"],
      ["deploy.sh", null, "url"],
    ]);
    // SARIF: one rule per subject, described as the text labels it.
    const run = (auditSarif(result) as any).runs[0];
    expect(run.results.map((r: any) => r.ruleId)).toEqual(["v1-base-url", "v1-call-unknown-operation", "v1-base-url", "v1-url-unknown-operation"]);
    for (const r of run.results) expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    expect(run.tool.driver.rules.find((r: any) => r.id === "v1-url-unknown-operation").shortDescription.text).toBe("v1 URL, operation unknown");
  });

  it("a finding with an operation keeps its operation label and no subject", async () => {
    const dir = project({ "client.ts": `export const stop = (id: string) => fetch(\`https://rest.runpod.io/v1/pods/\${id}/stop\`, { method: "POST" });\n` });
    const result = await runCodemod({ paths: [dir], write: false });
    expect(headers(auditText(result))).toEqual(["client.ts  auto  StopPod → POST /v2/pods/{id}/action"]);
    expect(auditJson(result).findings[0]).not.toHaveProperty("subject");
  });

  it("after the rewrite, a mark read back from the code keeps its label (a client hook, an error read)", async () => {
    const dir = project({
      "client.ts": `import ky from "ky";
import { problemHook } from "@acme/ky-hooks";

const api = ky.create({ prefixUrl: "https://rest.runpod.io/v1", hooks: { beforeError: [problemHook] } });

export async function stopPod(id: string) {
  await api.post(\`pods/\${id}/stop\`);
}
`,
      // The error body is parsed where it is read, for a call that migrates and one kept on v1 (reset).
      "helper.ts": `const BASE = "https://rest.runpod.io/v1";

async function send(path: string, method = "GET") {
  const res = await fetch(\`\${BASE}\${path}\`, { method });
  if (!res.ok) throw new Error(((await res.json()) as { message?: string }).message);
}

export const removeTemplate = (id: string) => send(\`/templates/\${id}\`, "DELETE");
export const reset = (id: string) => send(\`/pods/\${id}/reset\`, "POST");
`,
    });
    await runCodemod({ paths: [dir], write: true });
    const after = await runCodemod({ paths: [dir], write: false });
    // Each is marked for the call it serves, and says what the place is.
    expect(headers(auditText(after))).toEqual([
      "client.ts  review  StopPod → POST /v2/pods/{id}/action (client hook)",
      "helper.ts  review  DeleteTemplate → DELETE /v2/templates/{id} (v1 error read)",
      "helper.ts  no-equivalent  ResetPod",
    ]);
    expect(auditJson(after).findings.map((f) => f.subject)).toEqual(["hook", "error-read", undefined]);
  });
});
