// The tree scan's reader (source-files.ts SequentialReader): one reused buffer, the size learnt by
// reading. It answers as readBoundedSync does, file by file: the bytes, the same too-large skip (the
// same detail), unreadable files, empty files, and files larger than its first buffer.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readBoundedSync, SequentialReader, Slabs } from "../../codemod/source-files.ts";

describe("SequentialReader", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "seq-reader-"));
  const file = (name: string, bytes: Buffer) => (writeFileSync(path.join(dir, name), bytes), path.join(dir, name));
  const big = Buffer.alloc(700 * 1024, "a"); // over the reader's first 256 KiB buffer
  const files = [
    file("empty.ts", Buffer.alloc(0)),
    file("small.ts", Buffer.from('export const x = "ü";\n')),
    file("big.ts", big),
    file("over.ts", Buffer.alloc(1024 * 1024 + 1, "b")),
    file("at-limit.ts", Buffer.alloc(1024 * 1024, "c")),
    path.join(dir, "missing.ts"),
    (mkdirSync(path.join(dir, "a-dir.ts")), path.join(dir, "a-dir.ts")),
  ];

  it("answers each file as readBoundedSync does, in any order, its buffer reused", () => {
    const limit = 1024 * 1024;
    const reader = new SequentialReader(limit);
    for (const f of [...files, ...files.reverse()]) {
      const got = reader.read(f);
      const want = readBoundedSync(f, limit);
      if (got.ok && want.ok) expect(Buffer.compare(got.buf, want.buf)).toBe(0);
      else expect(got).toEqual(want);
    }
  });

  it("Slabs keeps copies that outlive the reader's next read", () => {
    const reader = new SequentialReader(4 * 1024 * 1024);
    const slabs = new Slabs();
    const small = reader.read(files.find((f) => f.endsWith("small.ts"))!);
    const kept = small.ok ? slabs.keep(small.buf) : Buffer.alloc(0);
    const large = reader.read(files.find((f) => f.endsWith("big.ts"))!);
    const keptLarge = large.ok ? slabs.keep(large.buf) : Buffer.alloc(0);
    reader.read(files.find((f) => f.endsWith("over.ts"))!);
    expect(kept.toString("utf8")).toBe('export const x = "ü";\n');
    expect(Buffer.compare(keptLarge, big)).toBe(0);
  });
});
