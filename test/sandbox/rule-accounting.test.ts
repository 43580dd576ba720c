// The v2 document's prose rules are all accounted for: every rule-like sentence the extractor
// finds has a line in sandbox/rules/accounting.ts (enforced where, or why not), the table has no
// stale lines, everything it names exists, and docs/v2-rules.md is generated from it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tryLoadV2 } from "../../openapi/reference.ts";
import { isRuleSentence, ruleSentences, sentenceId, splitSentences } from "../../openapi/rule-sentences.ts";
import { ACCOUNTING } from "../../sandbox/rules/accounting.ts";
import { ruleExists } from "../../sandbox/rules/index.ts";
import { renderRulesMarkdown } from "../../sandbox/rules/markdown.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";

describe("rule sentence extractor", () => {
  it("splits prose into sentences: abbreviations, versions and code spans do not end one; list items do", () => {
    const text = "Format: major.minor, e.g. 12.8 — a bare major is rejected. Use `a.b` freely.\n- First item\n  continues here.\n- `start` — boot it.";
    expect(splitSentences(text)).toEqual([
      "Format: major.minor, e.g. 12.8 — a bare major is rejected.",
      "Use `a.b` freely.",
      "- First item continues here.",
      "- `start` — boot it.",
    ]);
    expect(splitSentences("Comma-separated codes, e.g. FR or FR,DE. Valid only with X.")).toEqual(["Comma-separated codes, e.g. FR or FR,DE.", "Valid only with X."]);
  });

  it("keeps rule-like sentences only, keyed by pointer and the sentence with whitespace collapsed", () => {
    expect(isRuleSentence("Mount kind is fixed at create.")).toBe(true);
    expect(isRuleSentence("A non-empty set is mutually exclusive with minCudaVersion (400 if both are sent).")).toBe(true);
    expect(isRuleSentence("Human-readable name")).toBe(false);
    const doc = {
      components: { schemas: { A: { description: "Describes A. Rejected with 400 when\nwrong.", properties: { b: { description: "Only B." } } } } },
      paths: { "/v2/x": { get: { description: "Returns x.", examples: { e: { description: "must not count" } } } } },
    };
    const found = ruleSentences(doc);
    expect(found.map((f) => [f.pointer, f.sentence])).toEqual([
      ["/components/schemas/A", "Rejected with 400 when wrong."],
      ["/components/schemas/A/properties/b", "Only B."],
    ]);
    expect(found[0]!.id).toBe(sentenceId("/components/schemas/A", "Rejected  with 400\nwhen wrong."));
  });
});

const v2 = tryLoadV2();

describe.skipIf(missingReference)(refSuite("v2 rule accounting"), () => {
  const table = new Map(ACCOUNTING.map((e) => [sentenceId(e.pointer, e.sentence), e]));

  it("accounts for every rule-like sentence of the v2 document (add a line to sandbox/rules/accounting.ts)", () => {
    const unaccounted = ruleSentences(v2).filter((s) => !table.has(s.id)).map((s) => `${s.pointer}: ${s.sentence}`);
    expect(unaccounted).toEqual([]);
  });

  it("has no line for a sentence the document no longer states", () => {
    const found = new Set(ruleSentences(v2).map((s) => s.id));
    const stale = ACCOUNTING.filter((e) => !found.has(sentenceId(e.pointer, e.sentence))).map((e) => `${e.pointer}: ${e.sentence}`);
    expect(stale).toEqual([]);
    expect(table.size).toBe(ACCOUNTING.length); // no sentence accounted twice
  });

  it("has a test quoting every sentence a sandbox rule enforces (test/sandbox/rules*.test.ts, pod-lifecycle.test.ts)", () => {
    const dir = path.join(REPO_ROOT, "test", "sandbox");
    const sources = readdirSync(dir)
      .filter((f) => /^(rules.*|pod-lifecycle)\.test\.ts$/.test(f))
      .map((f) => readFileSync(path.join(dir, f), "utf8"));
    const unquoted = ACCOUNTING.filter((e) => e.account.kind === "rule")
      .filter((e) => !sources.some((src) => src.includes(JSON.stringify(e.sentence))))
      .map((e) => `${e.pointer}: ${e.sentence}`);
    expect(unquoted).toEqual([]);
  });

  it("names only rules, files and handler text that exist", () => {
    const problems: string[] = [];
    for (const e of ACCOUNTING) {
      const a = e.account;
      if (a.kind === "rule") for (const r of a.rules) if (!ruleExists(r)) problems.push(`no rule ${r} (for "${e.sentence}")`);
      if (a.kind === "handler") {
        const file = path.join(REPO_ROOT, a.file);
        if (!existsSync(file)) problems.push(`no file ${a.file}`);
        else if (!readFileSync(file, "utf8").includes(a.at)) problems.push(`${a.file} does not contain ${a.at} (for "${e.sentence}")`);
      }
      if (a.kind !== "rule" && a.kind !== "handler" && !Object.values(a)[1]) problems.push(`no reason given for "${e.sentence}"`);
    }
    expect(problems).toEqual([]);
  });
});

describe("docs/v2-rules.md", () => {
  it("is generated from the accounting table (run `npm run docs` after changing it)", () => {
    const committed = readFileSync(path.join(REPO_ROOT, "docs", "v2-rules.md"), "utf8");
    expect(committed === renderRulesMarkdown(), "docs/v2-rules.md is stale: run `npm run docs`").toBe(true);
  });
});
