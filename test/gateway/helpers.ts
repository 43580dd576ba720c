// Shared test rig for the gateway: a v2 sandbox, a gateway in front of it that records every
// upstream request, and v1 calls whose answers are checked against the published v1 document.
import http from "node:http";
import { parseList } from "structured-headers";
import { expect } from "vitest";
import { matchV1 } from "../../mappings/index.ts";
import { loadV1, loadV2 } from "../../openapi/reference.ts";
import { createV1Validator, createV2Validator, type OpenApiValidator } from "../../openapi/validator.ts";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import type { GatewayOptions } from "../../gateway/config.ts";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../sandbox/server.ts";

export const KEY = "sandbox_gateway_test";

export interface UpstreamRecord {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Rig {
  sandbox: Sandbox;
  gateway: Gateway;
  upstreamCalls: UpstreamRecord[];
  close(): Promise<void>;
}

export async function startRig(options: { sandbox?: SandboxOptions; gateway?: Partial<GatewayOptions> } = {}): Promise<Rig> {
  // Pods boot instantly unless a test asks for boot timing (sandbox.bootMs).
  const sandbox = await startSandbox({ port: 0, warn: () => {}, bootMs: 0, ...options.sandbox });
  const upstreamCalls: UpstreamRecord[] = [];
  const gateway = await startGateway({
    upstream: sandbox.url,
    port: 0,
    timeoutMs: 5_000,
    onUpstreamRequest: (r) => upstreamCalls.push(r),
    ...options.gateway,
  });
  return {
    sandbox,
    gateway,
    upstreamCalls,
    async close() {
      await gateway.close();
      await sandbox.close();
    },
  };
}

let v1v: OpenApiValidator | undefined;
let v2v: OpenApiValidator | undefined;
export const v1Validator = () => (v1v ??= createV1Validator(loadV1()));
export const v2Validator = () => (v2v ??= createV2Validator(loadV2()));

export interface V1Result<T = any> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
}

/**
 * Checks one gateway answer to a v1 client: deprecation headers always; success answers validate
 * against the v1 document's response schema; errors are `{"message": string}` JSON.
 */
export function expectV1Answer(method: string, path: string, r: { status: number; headers: Headers; text: string; json: unknown }): void {
  expect(r.headers.get("deprecation"), `${method} ${path} Deprecation`).toBe("@1794700800");
  expect(r.headers.get("sunset")).toBe("Sun, 15 Nov 2026 00:00:00 GMT");
  expect(r.headers.get("link") ?? "").toMatch(/^<https:\/\/api\.runpod\.io\/[^>]*>; rel="successor-version"$/);
  expect(r.status, `${method} ${path}: ${r.text.slice(0, 300)}`).not.toBe(500);
  if (r.status >= 400) {
    expect(r.headers.get("content-type") ?? "", `${method} ${path} error content type`).toMatch(/^application\/json/);
    expect(typeof (r.json as any)?.message, `${method} ${path} → ${r.status} ${r.text}`).toBe("string");
    return;
  }
  const pathOnly = path.split("?")[0]!;
  const match = v1Validator().matchOperation(method, pathOnly);
  expect(match, `${method} ${pathOnly} is a v1 operation`).not.toBeNull();
  const template = match!.pathTemplate;
  const documented = v1Validator().document.paths[template]![method.toLowerCase()].responses ?? {};
  if (!documented[String(r.status)] && template === "/pods/{podId}/restart") {
    // v1 documents no success answer for restart; the gateway answers like start/stop: 200, no body.
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
    return;
  }
  const body = r.text === "" ? undefined : r.json ?? r.text;
  const result = v1Validator().validateResponse(method, template, r.status, r.headers.get("content-type"), body);
  expect(result, `${method} ${path} → ${r.status} violates v1 document: ${r.text.slice(0, 300)}`).toEqual({ ok: true });
}

/** Calls the gateway as a v1 client would, checks the answer, and notes which operation succeeded. */
export function v1Client(baseUrl: () => string, exercised?: Set<string>) {
  return async function call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> } = {},
  ): Promise<V1Result<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const key = options.key === undefined ? KEY : options.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const res = await fetch(baseUrl() + "/v1" + path, { method, headers, body, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const r = { status: res.status, headers: res.headers, json, text };
    expectV1Answer(method, path, r);
    if (res.status < 300 && exercised) {
      const m = matchV1(method, path.split("?")[0]!);
      if (m) exercised.add(m.operation.key);
    }
    return r;
  };
}

/** Every upstream request must be a documented v2 operation with a valid query and body. */
export function expectValidV2Requests(records: UpstreamRecord[]): void {
  const v = v2Validator();
  for (const r of records) {
    const url = new URL(r.path, "http://upstream");
    expect(url.pathname.startsWith("/v2/"), r.path).toBe(true);
    const match = v.matchOperation(r.method, url.pathname);
    expect(match, `${r.method} ${url.pathname} is a v2 operation`).not.toBeNull();
    const query: Record<string, string> = {};
    url.searchParams.forEach((value, name) => (query[name] = value));
    expect(v.validateQuery(r.method, match!.pathTemplate, query), `${r.method} ${r.path} query`).toEqual({ ok: true });
    if (r.body !== undefined) {
      expect(v.validateRequestBody(r.method, match!.pathTemplate, JSON.parse(r.body)), `${r.method} ${r.path} body ${r.body}`).toEqual({ ok: true });
    }
  }
}

/** A raw HTTP/1.1 request (fetch refuses some of what fuzzing and error tests need: GET bodies, odd paths). */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, agent: false, headers: { ...(options.headers ?? {}), ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}) }, timeout: options.timeoutMs ?? 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: any;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
          resolve({ status: res.statusCode ?? 0, headers, text, json });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`request timed out: ${method} ${path}`)));
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** V2-Bridge-Warning entries of an answer. */
export function warningsOf(headers: Headers): string[] {
  const header = headers.get("v2-bridge-warning");
  return header ? parseList(header).map(([value]) => String(value)) : [];
}

const LOST_FIELDS = " not in this answer: ";

/** The record fields v2 cannot supply that an answer's warning names (gateway/translation/lost-fields.ts). */
export function lostFieldsNamed(headers: Headers): string[] {
  // A long list is split over several entries (gateway/translation/lost-fields.ts).
  return warningsOf(headers)
    .filter((w) => w.includes(LOST_FIELDS))
    .flatMap((entry) => entry.slice(0, entry.indexOf(LOST_FIELDS)).split(", "));
}

/** The warnings besides the one naming the record fields v2 cannot supply (every read has it). */
export function warningsBesidesLostFields(headers: Headers): string[] {
  return warningsOf(headers).filter((w) => !w.includes(LOST_FIELDS));
}

/** Usage drops of inputs a client sent (lost answer fields count as `answer.<field>`). */
export function inputDrops<T extends Record<string, Record<string, number>>>(drops: T): T {
  const out: Record<string, Record<string, number>> = {};
  for (const [key, fields] of Object.entries(drops)) {
    const inputs = Object.entries(fields).filter(([name]) => !name.startsWith("answer."));
    if (inputs.length) out[key] = Object.fromEntries(inputs);
  }
  return out as T;
}
