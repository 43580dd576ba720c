// The error text of a failed call survives the migration when the parsed body is stored on the
// error the helper throws (`new ApiError(res.status, body)`, read as `e.body?.message` in another
// module), and when a result client parses the text in a try with a v1-shaped stand-in (`catch {
// body = { message: text } }`) and its reader guards the read with `"message" in body`. Each
// helper serves a migrated call and a call kept on v1. The clients are rewritten (`rewrite
// --write`) and run over real HTTP: migrated calls against the strict v2 sandbox (RFC 9457
// problems, `detail`), kept calls through the gateway's /v1 (v1 `{ message }`). Each failure must
// carry its server's own text (before, the migrated calls' errors read "no message" / `HTTP 404`).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { e2eScope } from "./e2e-servers.ts";

const HTTP = `export class ApiError extends Error {
  constructor(public status: number, public body: any) {
    super(\`HTTP \${status}\`);
  }
}

const ROOT = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";

export async function api(path: string, method = "GET") {
  const res = await fetch(ROOT + path, { method, headers: { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` } });
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}
`;

const TOOLS = `import { api, ApiError } from "./http.ts";

function explain(e: unknown): string {
  return e instanceof ApiError ? \`API error \${e.status}: \${e.body?.message ?? "no message"}\` : String(e);
}

export async function deleteVolumeTool(id: string): Promise<string> {
  try {
    await api(\`/networkvolumes/\${id}\`, "DELETE");
    return "deleted";
  } catch (e) {
    return explain(e);
  }
}

export async function resetPodTool(id: string): Promise<string> {
  try {
    await api(\`/pods/\${id}/reset\`, "POST");
    return "reset";
  } catch (e) {
    return explain(e);
  }
}
`;

const RESULT_CLIENT = `import { httpError, type ApiError } from "./errors.ts";

export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

export class Client {
  constructor(private readonly apiKey: string, private readonly baseUrl = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1") {}

  private async send<T>(method: string, path: string): Promise<Result<T>> {
    const res = await fetch(\`\${this.baseUrl}\${path}\`, { method, headers: { Authorization: \`Bearer \${this.apiKey}\` } });
    const text = await res.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = { message: text };
      }
    }
    return res.ok ? { ok: true, value: body as T } : { ok: false, error: httpError(res.status, body) };
  }

  terminatePod(podId: string) {
    return this.send<void>("DELETE", \`/pods/\${podId}\`);
  }

  resetPod(podId: string) {
    return this.send<void>("POST", \`/pods/\${podId}/reset\`);
  }
}
`;

const RESULT_ERRORS = `export interface ApiError { status: number; message: string }

export function httpError(status: number, body: unknown): ApiError {
  const message =
    typeof body === "object" && body !== null && "message" in body && typeof (body as any).message === "string"
      ? (body as { message: string }).message
      : \`HTTP \${status}\`;
  return { status, message };
}
`;

describe("error bodies stored on the error or parsed with a stand-in, after a partial migration", () => {
  const scope = e2eScope("codemod-error-stored-");

  const rewritten = (name: string, files: Record<string, string>) => scope.rewriteTree(name, files);


  /** What each server says to a failed call, asked directly: v2's problem detail, the gateway's v1 message. */
  async function said() {
    const { sandbox, gateway, ask } = await scope.clientEnv("sandbox_errors");
    const volume = await ask(`${sandbox.url}/v2/network-volumes/nope`, { method: "DELETE" });
    const pod = await ask(`${sandbox.url}/v2/pods/nope`, { method: "DELETE" });
    const reset = await ask(`${gateway.url}/v1/pods/nope/reset`, { method: "POST" });
    for (const text of [volume.detail, pod.detail, reset.message]) expect(text).toEqual(expect.any(String));
    return { volume: volume.detail!, pod: pod.detail!, reset: reset.message! };
  }

  it("keeps the server's message stored on the error class the helper throws", async () => {
    const out = await rewritten("error-class", { "http.ts": HTTP, "tools.ts": TOOLS });
    // The catch's reader serves the migrated delete and the reset kept on v1: it reads both.
    expect(out["tools.ts"]).toContain("e.body?.detail ?? e.body?.message");
    expect(out["tools.ts"]).toContain("RUNPOD_V1_BASE");

    const text = await said();
    const tools = await import(pathToFileURL(path.join(scope.tmp, "error-class", "tools.ts")).href);
    expect(await tools.deleteVolumeTool("nope")).toBe(`API error 404: ${text.volume}`);
    expect(await tools.resetPodTool("nope")).toContain(text.reset);
  }, 120_000); // a codemod run, a sandbox and a gateway, on two shared cores

  it("keeps it through a let body with a v1-shaped stand-in and an `in` guard", async () => {
    const out = await rewritten("result", { "client.ts": RESULT_CLIENT, "errors.ts": RESULT_ERRORS });
    expect(out["errors.ts"]).toContain('("detail" in body || "message" in body)');
    expect(out["errors.ts"]).toContain("(body as { message: string; detail?: string }).detail ?? (body as { message: string; detail?: string }).message");

    const text = await said();
    const { Client } = await import(pathToFileURL(path.join(scope.tmp, "result", "client.ts")).href);
    const client = new Client(process.env.RUNPOD_API_KEY);
    const terminated = await client.terminatePod("nope");
    expect(terminated).toMatchObject({ ok: false, error: { message: text.pod } });
    const reset = await client.resetPod("nope");
    expect(reset).toMatchObject({ ok: false, error: { message: text.reset } });
  }, 120_000);
});
