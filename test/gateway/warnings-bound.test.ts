// V2-Bridge-Warning stays small however many warnings a request earns: a create with 1,000 unknown
// fields gets a bounded header ending "and N more", one pod, and the full list in the log.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseList } from "structured-headers";
import { MAX_WARNING_BYTES, MAX_WARNINGS } from "../../gateway/upstream/headers.ts";
import { KEY, startRig, v1Client, type Rig } from "./helpers.ts";

describe("bounded V2-Bridge-Warning", () => {
  let rig: Rig;
  const logLines: string[] = [];
  const call = v1Client(() => rig.gateway.url);

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    rig = await startRig({ gateway: { logger: { level: "warn", stream } } });
  });
  afterAll(async () => rig?.close());

  it("1,000 unknown fields on a create: header under a few KB ending 'and N more', one pod created, full list logged", async () => {
    const unknown = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`notAV1Field${i}`, i]));
    const created = await call("POST", "/pods", { body: { name: "many-warnings", imageName: "runpod/pytorch:2", gpuTypeIds: ["NVIDIA RTX A5000"], gpuCount: 1, ...unknown } });
    expect(created.status, created.text).toBe(201);
    const header = created.headers.get("v2-bridge-warning") ?? "";
    console.log(`V2-Bridge-Warning: ${header.length} bytes for 1,000 warnings`);
    expect(header.length).toBeGreaterThan(0);
    expect(header.length).toBeLessThanOrEqual(MAX_WARNING_BYTES);
    const entries = parseList(header).map(([item]) => String(item));
    expect(entries.length).toBeLessThanOrEqual(MAX_WARNINGS + 1);
    // 1,000 unknown fields, then the record fields v2 cannot supply (gateway/translation/lost-fields.ts:
    // a few entries, as many as their names need).
    const more = Number(/^and (\d+) more/.exec(entries.at(-1)!)?.[1]);
    expect(more).toBeGreaterThanOrEqual(1_001 - (entries.length - 1));
    expect(more).toBeLessThanOrEqual(1_006 - (entries.length - 1));
    expect(more + entries.length - 1 - 1_000, "every lost-field entry counted").toBeGreaterThan(0);
    expect(entries[0]).toMatch(/^notAV1Field0 ignored/);

    const pods = await call("GET", "/pods", { key: KEY });
    expect(pods.json.filter((p: { name: string }) => p.name === "many-warnings")).toHaveLength(1);

    await new Promise((r) => setTimeout(r, 50)); // pino writes asynchronously
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => Array.isArray(l.warnings));
    // Then the lost record fields, over as many entries as their names need.
    expect(logged?.warnings.length).toBe(1_000 + logged.warnings.filter((w: string) => w.includes(" not in this answer: ")).length);
    expect(logged.warnings[999]).toMatch(/^notAV1Field999 ignored/);
    expect(logged.warnings.at(-1)).toMatch(/ not in this answer: /);
  });
});
