// docs/mapping.md is generated from the table; a stale copy fails here (run `npm run docs`).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { operations, renderMarkdown } from "../../mappings/index.ts";

describe("generated mapping docs", () => {
  it("docs/mapping.md matches the table (run `npm run docs` after changing mappings/)", () => {
    const committed = readFileSync(path.join(REPO_ROOT, "docs", "mapping.md"), "utf8");
    expect(committed === renderMarkdown(), "docs/mapping.md is stale: run `npm run docs`").toBe(true);
  });

  it("lists every operation, with reset's advice", () => {
    const md = renderMarkdown();
    for (const op of operations) expect(md).toContain(`\`${op.v1.method} ${op.v1.path}\``);
    expect(md).toContain("pod reset has no v2 equivalent");
  });
});
