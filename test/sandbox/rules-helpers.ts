// Shared by the rule tests (test/sandbox/rules*.test.ts): a strict sandbox over HTTP, problem
// checks, and test titles that quote the v2 document's sentences exactly as the accounting table
// holds them (a title that quotes anything else throws, so a quote cannot drift from the table).
import { afterAll, beforeAll, expect } from "vitest";
import { ACCOUNTING } from "../../sandbox/rules/accounting.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";

function quotingKind(kind: "rule" | "schema", sentences: string[]): string {
  for (const s of sentences) {
    if (!ACCOUNTING.some((e) => e.account.kind === kind && e.sentence === s)) throw new Error(`not a ${kind}-enforced sentence of sandbox/rules/accounting.ts: ${s}`);
  }
  return sentences.map((s) => `"${s}"`).join(" / ");
}

/** A test title quoting sentences the table says a sandbox rule enforces. */
export const quoting = (...sentences: string[]) => quotingKind("rule", sentences);
/** A test title quoting sentences the table says the JSON Schema validator enforces. */
export const quotingSchema = (...sentences: string[]) => quotingKind("schema", sentences);

export type Answer = { status: number; body: any; headers: Headers };

/** Starts a strict sandbox (instant boots, no rate limit) for the enclosing suite. */
export function sandboxForRules() {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, warn: () => {}, bootMs: 0, rateLimit: false });
  });
  afterAll(async () => {
    await sb?.close();
  });
  async function call(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(sb.url + path, {
      method,
      headers: { authorization: "Bearer sandbox_rules", ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }
  return { call };
}

/** Expects an RFC 9457 problem with this status whose detail matches; returns its body. */
export async function expectProblem(p: Promise<Answer>, status: number, detail: RegExp) {
  const r = await p;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status, title: expect.any(String) });
  expect(r.body.detail).toMatch(detail);
  return r.body;
}

export const gpuPod = (extra: Record<string, unknown> = {}) => ({ name: "p", image: "img:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 }, ...extra });
export const cpuPod = (extra: Record<string, unknown> = {}) => ({ name: "c", image: "img:1", cpu: { id: "cpu3c", vcpuCount: 2 }, ...extra });
export const endpoint = (extra: Record<string, unknown> = {}) => ({ name: "e", image: "img:1", type: "QUEUE", scaling: { type: "QUEUE_DELAY", queueDelay: 4 }, gpu: { pools: ["ADA_24"] }, ...extra });
