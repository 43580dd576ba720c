// `reference fetch` against a local server: the good documents land in the cache; a wrong hash, a
// 404, a stall and an oversized body are each a one-line error that leaves the cache as it was.
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchReference, ReferenceFetchError } from "../../openapi/reference-fetch.ts";
import type { Pin } from "../../openapi/reference-pins.ts";
import type { ReferenceName } from "../../openapi/reference.ts";
import { startDocumentServer, type DocumentServer } from "../helpers/document-server.ts";

const doc = (v: string) => JSON.stringify({ openapi: v, info: { title: `doc ${v}` }, paths: {} }, null, 2);
const V1 = doc("3.0.3");
const V2 = doc("3.1.0");
const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");
const pinsFor = (base: string): Record<ReferenceName, Pin> => ({
  "v1-openapi.json": { url: `${base}/v1-openapi.json`, sha256: sha(V1) },
  "v2-openapi.json": { url: `${base}/v2-openapi.json`, sha256: sha(V2) },
});

let server: DocumentServer;
beforeAll(async () => {
  server = await startDocumentServer({
    "/good/v1-openapi.json": { body: V1 },
    "/good/v2-openapi.json": { body: V2 },
    "/changed/v1-openapi.json": { body: V1 },
    "/changed/v2-openapi.json": { body: doc("3.1.1") },
    "/html/v1-openapi.json": { body: V1 },
    "/html/v2-openapi.json": { body: "<html>maintenance</html>" },
    "/missing/v1-openapi.json": { body: V1 },
    "/slow/v1-openapi.json": { body: V1 },
    "/slow/v2-openapi.json": { stallMs: 5_000 },
    "/big/v1-openapi.json": { oversized: 300_000, declareLength: true },
    "/big/v2-openapi.json": { body: V2 },
    "/chunked/v1-openapi.json": { body: V1 },
    "/chunked/v2-openapi.json": { oversized: 300_000, declareLength: false },
  });
});
afterAll(() => server.close());

const freshDir = () => mkdtempSync(path.join(os.tmpdir(), "v2b-ref-"));
const run = (variant: string, dir: string, extra: { accept?: boolean; timeoutMs?: number; maxBytes?: number } = {}) =>
  fetchReference({ dir, base: `${server.url}/${variant}`, pins: pinsFor(`${server.url}/${variant}`), maxBytes: 200_000, ...extra });

async function failure(p: Promise<unknown>): Promise<string> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReferenceFetchError);
  const message = (error as Error).message;
  expect(message).not.toContain("\n");
  return message;
}

describe("reference fetch", () => {
  it("writes both documents, byte for byte, after checking their pinned sha256", async () => {
    const dir = freshDir();
    const written = await run("good", dir);
    expect(written.map((w) => [w.name, w.pinned, w.sha256])).toEqual([
      ["v1-openapi.json", true, sha(V1)],
      ["v2-openapi.json", true, sha(V2)],
    ]);
    expect(readFileSync(path.join(dir, "v1-openapi.json"), "utf8")).toBe(V1);
    expect(readFileSync(path.join(dir, "v2-openapi.json"), "utf8")).toBe(V2);
  });

  it("a changed document is refused, naming both hashes and --accept; the cache keeps the old copies", async () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, "v1-openapi.json"), "old v1");
    const message = await failure(run("changed", dir));
    expect(message).toContain(`sha256 ${sha(doc("3.1.1"))}`);
    expect(message).toContain(`pinned one is ${sha(V2)}`);
    expect(message).toContain("--accept");
    expect(readdirSync(dir)).toEqual(["v1-openapi.json"]);
    expect(readFileSync(path.join(dir, "v1-openapi.json"), "utf8")).toBe("old v1");
  });

  it("--accept takes the changed document and says it is not the pinned one", async () => {
    const dir = freshDir();
    const written = await run("changed", dir, { accept: true });
    expect(written.find((w) => w.name === "v2-openapi.json")).toMatchObject({ pinned: false, sha256: sha(doc("3.1.1")) });
    expect(JSON.parse(readFileSync(path.join(dir, "v2-openapi.json"), "utf8")).openapi).toBe("3.1.1");
  });

  it("--accept still refuses something that is not an OpenAPI document", async () => {
    const message = await failure(run("html", freshDir(), { accept: true }));
    expect(message).toMatch(/v2-openapi\.json from .* is not JSON/);
  });

  it("a 404 is an error naming the URL and the status", async () => {
    const dir = freshDir();
    const message = await failure(run("missing", dir));
    expect(message).toBe(`could not fetch v2-openapi.json from ${server.url}/missing/v2-openapi.json: HTTP 404`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a stalled download gives up at the deadline", async () => {
    const started = Date.now();
    const message = await failure(run("slow", freshDir(), { timeoutMs: 300 }));
    expect(message).toMatch(/v2-openapi\.json .*: no complete answer within 0\.3 s/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("an oversized document is refused, whether or not it announces its length", async () => {
    expect(await failure(run("big", freshDir()))).toMatch(/v1-openapi\.json .*: 300000 bytes, more than the 200000/);
    expect(await failure(run("chunked", freshDir()))).toMatch(/v2-openapi\.json .*: more than the 200000 bytes/);
  });

  it("a server that is not there is an error too", async () => {
    const dir = freshDir();
    const gone = await startDocumentServer({});
    await gone.close();
    const message = await failure(fetchReference({ dir, base: gone.url, pins: pinsFor(gone.url) }));
    expect(message).toMatch(/could not fetch v[12]-openapi\.json from http:\/\/127\.0\.0\.1:\d+\/v[12]-openapi\.json: ECONNREFUSED/);
  });
});
