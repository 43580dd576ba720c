// Each converter's v1-direction source form (Converter.codemodToV1, which the boundary adapter
// writes into record functions) computes what its toV1 computes. For every combination of present
// inputs, over values built from the v2 fields converters read (right and wrong types, null, empty
// lists and objects, odd shapes), the written outputs, evaluated as plain JavaScript, equal toV1's
// (null and undefined alike: both leave the v1 field out), or both throw. The written text also
// type-checks under the adapter's strictest settings with the inputs typed `any`.
// A failure prints fast-check's seed; FC_SEED=<seed> replays it.
import fc from "fast-check";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { converters, lenses, type Converter } from "../../mappings/index.ts";
import { splitWords as gatewaySplitWords } from "../../mappings/shell-words.ts";
import { helpers } from "../../codemod/adapter/runtime-source.ts";
import { annotate } from "../../codemod/adapter/source-text.ts";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 400), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) };

/** How many v2 inputs each converter reads (the lenses' v2 paths toward v1). */
function arities(): Map<string, number> {
  const out = new Map<string, number>();
  for (const lens of Object.values(lenses)) {
    for (const f of lens.fields) {
      if (!f.converter || f.only === "toV2") continue;
      const known = out.get(f.converter);
      if (known !== undefined && known !== f.v2.length) throw new Error(`${f.converter} reads ${known} and ${f.v2.length} v2 inputs`);
      out.set(f.converter, f.v2.length);
    }
  }
  return out;
}

const arity = arities();
const withForm = Object.values(converters).filter((c) => c.codemodToV1);
const masks = (n: number) => Array.from({ length: (1 << n) - 1 }, (_, i) => i + 1);
const sourcesFor = (n: number, mask: number) => Array.from({ length: n }, (_, i) => (mask & (1 << i) ? `a${i}` : undefined));

/** The adapter's own splitWords helper, as the generated module has it. */
const adapterSplitWords = new Function(`${helpers.splitWords!.code(annotate("js"))}\nreturn splitWords;`)() as (line: string) => string[];

/** The written outputs as a function of the inputs (absent ones passed as undefined). */
function evaluate(c: Converter, n: number, mask: number): (values: unknown[]) => unknown[] {
  const written = c.codemodToV1!(sourcesFor(n, mask));
  if (written === null) throw new Error(`${c.name} wrote nothing for mask ${mask}`);
  const params = Array.from({ length: n }, (_, i) => `a${i}`);
  const fn = new Function(...params, "splitWords", `return [${written.map((w) => w ?? "undefined").join(", ")}];`);
  return (values) => fn(...values, adapterSplitWords);
}

type Outcome = { value: unknown[] } | { threw: true };
const outcome = (run: () => unknown[], k: number): Outcome => {
  try {
    const out = run();
    // v1 records never carry null: the lens engine (and the adapter's putV1) leave the field out.
    return { value: Array.from({ length: k }, (_, j) => (out[j] === null ? undefined : out[j])) };
  } catch {
    return { threw: true };
  }
};

// Values shaped like what the converters read, and not: keys they look up, strings they compare with.
const KEYS = ["type", "queueDelay", "requestCount", "persistent", "network", "size", "path", "volumeId", "id", "count", "allowedCudaVersions", "vcpuCount", "memory", "ports", "private", "public", "ip", "filter", "length"];
const STRINGS = ["", "OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT", "SECURE", "COMMUNITY", "REQUEST_COUNT", "QUEUE_DELAY", "EXITED", "ERROR", "TERMINATED", "RUNNING", "10.0.0.1", "/workspace"];
const shellText = fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "'", '"', "\\", "$", "`"), maxLength: 12 });
const { node: value } = fc.letrec<{ leaf: unknown; node: unknown }>((tie) => ({
  leaf: fc.oneof(fc.constant(null), fc.boolean(), fc.constantFrom(0, 1, 10, 8080, -1, 2.5), fc.constantFrom(...STRINGS), shellText),
  node: fc.oneof(
    { depthSize: "small" },
    tie("leaf"),
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 4 }),
  ),
}));
const EDGES: unknown[] = [
  null, false, true, 0, "", "OFF", [], {}, [null], [{}],
  { persistent: null }, { persistent: { size: 20, path: "/w" } }, { network: [] }, { network: [null] }, { network: "x" },
  { network: [{ volumeId: "v", path: "/n" }], persistent: { size: 5 } }, { ports: null }, { ports: "x" }, { ports: { filter: 1 } },
  { ports: [null, { private: 22, public: 40022, ip: "" }, { private: 80, public: 8080, ip: "1.2.3.4" }, { private: 8888, public: null }] },
  { type: "REQUEST_COUNT", requestCount: 3, queueDelay: 9 }, { type: null, queueDelay: 4 },
  [{ id: "cpu3c", vcpuCount: 4 }, { id: "cpu5c" }], [{ id: "x" }, null], { id: "A40", count: null, allowedCudaVersions: ["12.1"] },
];

describe("v1-direction source forms ≡ the converters' toV1", () => {
  it("every converter that does not need the catalog has one; a catalog converter has one only for the outputs that do not need it", () => {
    for (const c of Object.values(converters)) {
      expect(!!c.codemodToV1, c.name).toBe(!c.needsCatalog || !!c.catalogOutputs);
      expect(arity.has(c.name), `${c.name} is used by a lens toward v1`).toBe(true);
    }
  });

  it.each(withForm.map((c) => [c.name, c]))("%s", (_, c) => {
    const n = arity.get(c.name)!;
    for (const mask of masks(n)) {
      const written = evaluate(c, n, mask);
      const inputs = fc.tuple(...Array.from({ length: n }, () => value));
      fc.assert(
        fc.property(inputs, (drawn) => {
          const values = drawn.map((v, i) => (mask & (1 << i) ? v : undefined));
          const expected = outcome(() => c.toV1(values, {}), 8);
          expect(outcome(() => written(values), 8), `${c.name} mask ${mask} ${JSON.stringify(values)}`).toStrictEqual(expected);
        }),
        { ...RUNS, examples: EDGES.map((e) => [Array.from({ length: n }, () => e)]) },
      );
    }
  });

  it("an input that computes something is refused (the forms repeat their inputs)", () => {
    for (const c of withForm) expect(c.codemodToV1!(Array.from({ length: arity.get(c.name)! }, () => "load()")), c.name).toBeNull();
  });

  it("the adapter's splitWords is the gateway's", () => {
    fc.assert(
      fc.property(shellText, (line) => {
        const run = (split: (l: string) => string[]) => {
          try {
            return { words: split(line) };
          } catch (error) {
            return { threw: (error as Error).message };
          }
        };
        expect(run(adapterSplitWords), JSON.stringify(line)).toStrictEqual(run(gatewaySplitWords));
      }),
      { ...RUNS, numRuns: 2000 },
    );
  });

  it("the written forms type-check (strictest) with `any` inputs, as the adapter declares them", () => {
    const functions = withForm.flatMap((c) => {
      const n = arity.get(c.name)!;
      return masks(n).map((mask) => {
        const params = Array.from({ length: n }, (_, i) => `a${i}: any`).join(", ");
        const uses = Array.from({ length: n }, (_, i) => `void a${i};`).join(" ");
        const written = c.codemodToV1!(sourcesFor(n, mask))!.map((w) => w ?? "undefined");
        return `export function ${c.name}${mask}(${params}): unknown[] {\n  ${uses}\n  return [${written.join(", ")}];\n}`;
      });
    });
    const text = [helpers.splitWords!.code(annotate("ts")), ...functions].join("\n\n");
    const file = path.resolve("__to_v1_forms__.ts");
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noImplicitReturns: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noPropertyAccessFromIndexSignature: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts"],
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const getSource = host.getSourceFile.bind(host);
    host.getSourceFile = (f, lang, ...rest) => (path.resolve(f) === file ? ts.createSourceFile(f, text, lang) : getSource(f, lang, ...rest));
    const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([file], options, host)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      return `${text.split("\n")[line] ?? ""}\n  → TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
    expect(diagnostics).toEqual([]);
  });
});
