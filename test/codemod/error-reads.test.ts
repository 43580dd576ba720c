// Error reads reached by several calls: the audit reports a read the codemod cannot rewrite, at
// the read (one finding for each call reaching it, with its operation, before and after `rewrite --write`); a read already reading both
// shapes is not rewritten again when a kept call later migrates; writes to the field are not
// reads. Real temp directories on disk.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

function project(name: string, text: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "codemod-error-reads-"));
  temps.push(dir);
  writeFileSync(path.join(dir, name), text);
  return dir;
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

// `check` parses the body where it reads it and serves a call that migrates and one kept on v1.
const PARSED_IN_PLACE = `const BASE = "https://rest.runpod.io/v1";
async function check(res: Response) {
  if (!res.ok) throw new Error(((await res.json()) as { message?: string }).message ?? res.statusText);
  return res.json();
}
export async function removeEndpoint(id: string) {
  return check(await fetch(\`\${BASE}/endpoints/\${id}\`, { method: "DELETE" }));
}
export async function resetPod(id: string) {
  return check(await fetch(\`\${BASE}/pods/\${id}/reset\`, { method: "POST" }));
}
`;

describe("error reads shared by calls", () => {
  it("reports a read it cannot rewrite at the read, once, before and after the rewrite", async () => {
    const dir = project("client.ts", PARSED_IN_PLACE);
    const readLine = lineOf(PARSED_IN_PLACE, "as { message?: string }");
    const before = await runCodemod({ paths: [dir] });
    const atRead = before.findings.filter((f) => f.reason.startsWith("reads the v1 error field message"));
    expect(atRead.map((f) => [f.line, f.operation, f.category])).toEqual([[readLine, "DeleteEndpoint", "review"]]);
    expect(atRead[0]!.reason).toContain("client.ts:7");

    await runCodemod({ paths: [dir], write: true });
    const text = readFileSync(path.join(dir, "client.ts"), "utf8");
    // Left as it was, under its mark; the migrated call moved on.
    expect(text).toContain("((await res.json()) as { message?: string }).message ?? res.statusText");
    expect(text).toContain("/serverless/");
    const after = await runCodemod({ paths: [dir] });
    const marked = after.findings.filter((f) => f.reason.startsWith("reads the v1 error field message"));
    expect(marked.map((f) => [f.line, f.operation])).toEqual([[lineOf(text, "as { message?: string }"), "DeleteEndpoint"]]);
  });

  it("leaves a read of both shapes as it is when the last kept call migrates, and never rewrites a write", async () => {
    // What an earlier run wrote for an interceptor serving a migrated call and a kept one; the kept
    // call has since been moved to v2 by hand, and stopPod is the v1 call this run migrates.
    const dir = project(
      "ops.mjs",
      `import axios from "axios";
const http = axios.create({ baseURL: "https://rest.runpod.io/v1" });
http.interceptors.response.use((r) => r, (err) => {
  const data = err.response?.data ?? {};
  if (!data.message) data.message = "unknown error";
  return Promise.reject(new Error((data.detail ?? data.message) || err.message));
});
export const stopPod = (id) => http.post(\`/pods/\${id}/stop\`);
`,
    );
    await runCodemod({ paths: [dir], write: true });
    const text = readFileSync(path.join(dir, "ops.mjs"), "utf8");
    expect(text).toContain('if (!data.detail) data.message = "unknown error";');
    expect(text).toContain("(data.detail ?? data.message) || err.message");
    expect(text).toContain("/pods/${id}/action");
  });
});
