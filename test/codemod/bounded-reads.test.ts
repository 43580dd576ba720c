// The codemod reads a project with a bounded number of files in flight (p-limit): at most 32
// sources and 16 other text files at once, however many there are, and every file is still read
// and reported in order. Real files on disk; only the read calls are counted (and slowed a little,
// so that reads overlap the way they do on a slow disk).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

const inFlight = { source: 0, text: 0, maxSource: 0, maxText: 0 };
const pause = () => new Promise((r) => setTimeout(r, 2));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  // Sources are read with readFile(path); other text files through a handle (open … close).
  const readFile = (async (...args: Parameters<typeof real.readFile>) => {
    if (typeof args[0] !== "string" || !args[0].endsWith(".ts")) return real.readFile(...args);
    inFlight.maxSource = Math.max(inFlight.maxSource, ++inFlight.source);
    try {
      await pause();
      return await real.readFile(...args);
    } finally {
      inFlight.source--;
    }
  }) as typeof real.readFile;
  const open = (async (...args: Parameters<typeof real.open>) => {
    const handle = await real.open(...args);
    if (typeof args[0] !== "string" || !args[0].endsWith(".sh")) return handle;
    inFlight.maxText = Math.max(inFlight.maxText, ++inFlight.text);
    await pause();
    const close = handle.close.bind(handle);
    handle.close = async () => {
      inFlight.text--;
      return close();
    };
    return handle;
  }) as typeof real.open;
  return { ...real, default: { ...real, readFile, open }, readFile, open };
});

const { runCodemod } = await import("../../codemod/project.ts");

const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-bounded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bounded reads", { timeout: 60_000 }, () => {
  it("at most 32 sources and 16 text files in flight; every file read, findings in file order", async () => {
    mkdirSync(path.join(dir, "src"));
    mkdirSync(path.join(dir, "scripts"));
    for (let i = 0; i < 300; i++) writeFileSync(path.join(dir, "src", `m${String(i).padStart(3, "0")}.ts`), `export const n${i} = ${i};\n`);
    for (let i = 0; i < 3; i++) writeFileSync(path.join(dir, "src", `v1-${i}.ts`), `export const pods${i} = () => fetch("https://rest.runpod.io/v1/pods");\n`);
    for (let i = 0; i < 100; i++) writeFileSync(path.join(dir, "scripts", `s${String(i).padStart(3, "0")}.sh`), `curl https://rest.runpod.io/v1/pods/p${i}\n`);

    const result = await runCodemod({ paths: [dir], textFiles: true });
    expect(result.summary.files).toBe(403);
    // Reads are synchronous inside each task since the monorepo work (faster over many small
    // files), so fewer may be in flight; never more than the limits.
    expect(inFlight.maxSource).toBeLessThanOrEqual(32);
    expect(inFlight.maxText).toBeLessThanOrEqual(16);
    expect([inFlight.source, inFlight.text]).toEqual([0, 0]);
    const files = result.findings.map((f) => f.file);
    expect(files).toEqual([...Array.from({ length: 100 }, (_, i) => `scripts/s${String(i).padStart(3, "0")}.sh`), "src/v1-0.ts", "src/v1-1.ts", "src/v1-2.ts"]);
  });
});
