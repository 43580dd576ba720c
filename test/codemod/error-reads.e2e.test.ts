// The error text of a failed call survives the migration, for calls that move to v2 and calls
// kept on v1, when it is read in shared code: an axios interceptor, a fetch response check, a got
// instance's beforeError hook, an Angular service's rxjs error handlers, each serving both kinds
// of call. The client is rewritten (`rewrite --write`) and run over real HTTP: migrated calls
// against the strict v2 sandbox (RFC 9457 problems, `detail`), kept calls through the gateway's
// /v1 (v1 `{ message }`). Each failure must carry the server's own text.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { e2eScope, type E2eServers } from "./e2e-servers.ts";
import { writeObservableStandIns } from "./observable-stand-ins.ts";

const CLIENT = `import axios from "axios";

const BASE = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";
const headers = { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };

const api = axios.create({ baseURL: BASE, headers });
api.interceptors.response.use((r) => r, (error) => Promise.reject(new Error(error.response?.data?.message ?? "no message")));

export async function stopPod(podId: string): Promise<void> {
  await api.post(\`/pods/\${podId}/stop\`);
}

export async function resetPod(podId: string): Promise<void> {
  await api.post(\`/pods/\${podId}/reset\`);
}

async function unwrap(res: Response) {
  if (!res.ok) {
    const body = await res.json();
    throw new Error(body.message ?? "no message");
  }
  return res.json();
}

export async function deleteTemplate(id: string) {
  return unwrap(await fetch(\`\${BASE}/templates/\${id}\`, { method: "DELETE", headers }));
}

export async function resetPodNow(podId: string) {
  return unwrap(await fetch(\`\${BASE}/pods/\${podId}/reset\`, { method: "POST", headers }));
}
`;

// A got client whose instance turns the API's error body into the error's message, in a
// beforeError hook given to `got.extend` (got parses the body: `responseType: "json"`).
const GOT_CLIENT = `import got, { type BeforeErrorHook } from "got";

const BASE = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";

const withServerText: BeforeErrorHook = (error) => {
  const body = error.response?.body as { message?: string } | undefined;
  error.message = body?.message ?? "no message";
  return error;
};

const runpod = got.extend({
  prefixUrl: BASE,
  responseType: "json",
  retry: { limit: 0 },
  headers: { authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` },
  hooks: { beforeError: [withServerText] },
});

export async function stopPod(podId: string): Promise<void> {
  await runpod.post(\`pods/\${podId}/stop\`);
}

export async function resetPod(podId: string): Promise<void> {
  await runpod.post(\`pods/\${podId}/reset\`);
}
`;

// An Angular service: one error handler passed to catchError by name serves a call that moves to
// v2 and the reset kept on v1; a handler written in place serves a migrated call only. Angular's
// HttpErrorResponse carries the server's body in \`.error\`.
const ANGULAR_CLIENT = `import { HttpClient, HttpErrorResponse } from "@angular/common/http";
import { firstValueFrom, throwError, type Observable } from "rxjs";
import { catchError } from "rxjs/operators";

const BASE = process.env.RUNPOD_API_URL ?? "https://rest.runpod.io/v1";
const headers = { Authorization: \`Bearer \${process.env.RUNPOD_API_KEY}\` };

export class PodsService {
  constructor(private readonly http: HttpClient) {}

  stop(podId: string): Observable<unknown> {
    return this.http.post(\`\${BASE}/pods/\${podId}/stop\`, {}, { headers }).pipe(catchError(this.handleError));
  }

  reset(podId: string): Observable<unknown> {
    return this.http.post(\`\${BASE}/pods/\${podId}/reset\`, {}, { headers }).pipe(catchError(this.handleError));
  }

  removeTemplate(id: string): Observable<unknown> {
    return this.http.delete(\`\${BASE}/templates/\${id}\`, { headers }).pipe(
      catchError((e: HttpErrorResponse) => throwError(() => new Error(e.error?.message ?? "no message"))),
    );
  }

  private handleError(error: HttpErrorResponse) {
    return throwError(() => new Error(error.error?.message ?? "no message"));
  }
}

const pods = new PodsService(new HttpClient());
export const stopPod = (podId: string) => firstValueFrom(pods.stop(podId));
export const resetPod = (podId: string) => firstValueFrom(pods.reset(podId));
export const deleteTemplate = (id: string) => firstValueFrom(pods.removeTemplate(id));
`;

describe("error text read in shared code, after a partial migration", () => {
  const scope = e2eScope("codemod-error-reads-");

  /** The client written in its own folder and rewritten (`rewrite --write`); its text after. */
  async function rewritten(name: string, source: string): Promise<string> {
    const file = path.join(scope.tmp, name, "client.ts");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, source);
    await runCodemod({ paths: [path.dirname(file)], write: true });
    return readFileSync(file, "utf8");
  }

  /** The servers, the client's environment, and what each server says to a failed call, asked directly: v2's problem detail, the gateway's v1 message. */
  async function serversAndTexts(): Promise<E2eServers & { v2Stop: string; v2Template: string; v1Reset: string }> {
    const { ask, ...servers } = await scope.clientEnv("sandbox_errors");
    const { sandbox, gateway } = servers;
    const v2Stop = await ask(`${sandbox.url}/v2/pods/nope/action`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action: "stop" }) });
    const v2Template = await ask(`${sandbox.url}/v2/templates/nope`, { method: "DELETE" });
    const v1Reset = await ask(`${gateway.url}/v1/pods/nope/reset`, { method: "POST" });
    for (const said of [v2Stop.detail, v2Template.detail, v1Reset.message]) expect(said).toEqual(expect.any(String));
    return { ...servers, v2Stop: v2Stop.detail!, v2Template: v2Template.detail!, v1Reset: v1Reset.message! };
  }

  it("keeps the server's message for migrated and kept calls alike", async () => {
    const text = await rewritten("axios-fetch", CLIENT);
    // Both shared reads serve a call on v2 and a call kept on v1: they read both fields.
    expect(text).toContain("error.response?.data?.detail ?? error.response?.data?.message");
    expect(text).toContain("body.detail ?? body.message");
    expect(text).toContain("RUNPOD_V1_BASE");

    const said = await serversAndTexts();
    const client = await import(pathToFileURL(path.join(scope.tmp, "axios-fetch", "client.ts")).href);
    await expect(client.stopPod("nope")).rejects.toThrow(said.v2Stop);
    await expect(client.resetPod("nope")).rejects.toThrow(said.v1Reset);
    await expect(client.deleteTemplate("nope")).rejects.toThrow(said.v2Template);
    await expect(client.resetPodNow("nope")).rejects.toThrow(said.v1Reset);
  });

  it("keeps it through an Angular service's error handlers (rxjs catchError)", async () => {
    // rxjs and Angular are not dependencies here: small stand-ins run the client (observable-stand-ins.ts).
    writeObservableStandIns(scope.tmp);
    const text = await rewritten("angular", ANGULAR_CLIENT);
    // The shared handler serves the migrated stop and the reset kept on v1; the inline one the template delete only.
    expect(text).toContain("?.detail ?? error.error?.message");
    expect(text).toContain("e.error?.detail ?? \"no message\"");
    expect(text).toContain("/pods/${podId}/action");
    expect(text).toContain("${RUNPOD_V1_BASE}/pods/${podId}/reset");
    expect(text).not.toContain("TODO(v2-migration) DeleteTemplate");

    const said = await serversAndTexts();
    const client = await import(pathToFileURL(path.join(scope.tmp, "angular", "client.ts")).href);
    await expect(client.stopPod("nope")).rejects.toThrow(said.v2Stop);
    await expect(client.resetPod("nope")).rejects.toThrow(said.v1Reset);
    await expect(client.deleteTemplate("nope")).rejects.toThrow(said.v2Template);
  });

  it("keeps it through a got instance's beforeError hook", async () => {
    const text = await rewritten("got-hook", GOT_CLIENT);
    // The hook serves the migrated stop and the reset kept on v1: it reads both fields.
    expect(text).toContain("error.message = body?.detail ?? body?.message");
    expect(text).toContain("{ prefixUrl: RUNPOD_V1_BASE }");

    const said = await serversAndTexts();
    const client = await import(pathToFileURL(path.join(scope.tmp, "got-hook", "client.ts")).href);
    await expect(client.stopPod("nope")).rejects.toThrow(said.v2Stop);
    await expect(client.resetPod("nope")).rejects.toThrow(said.v1Reset);
  });
});
