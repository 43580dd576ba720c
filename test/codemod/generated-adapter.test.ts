// The passes skip the boundary adapter module only where its text is exactly what this version
// generates (codemod/engine/generated-adapter.ts): a hand-edited module is analysed like any file.
import { describe, expect, it } from "vitest";
import { adapterModule } from "../../codemod/adapter/index.ts";
import { isGeneratedAdapter } from "../../codemod/engine/generated-adapter.ts";

describe("isGeneratedAdapter", () => {
  const ts = adapterModule({ language: "ts", moduleKind: "esm" }).text;
  const cjs = adapterModule({ language: "js", moduleKind: "cjs" }).text;

  it("recognises each variant under its own file name", () => {
    expect(isGeneratedAdapter("/app/src/v2-bridge-adapter.ts", ts)).toBe(true);
    expect(isGeneratedAdapter("/app/v2-bridge-adapter.ts", adapterModule({ language: "ts", moduleKind: "cjs" }).text)).toBe(true);
    expect(isGeneratedAdapter("/app/v2-bridge-adapter.js", adapterModule({ language: "js", moduleKind: "esm" }).text)).toBe(true);
    expect(isGeneratedAdapter("/app/v2-bridge-adapter.cjs", cjs)).toBe(true);
  });

  it("does not recognise an edited module, another file name, or a variant under the wrong extension", () => {
    expect(isGeneratedAdapter("/app/v2-bridge-adapter.ts", ts + 'fetch("https://rest.runpod.io/v1/pods");\n')).toBe(false);
    expect(isGeneratedAdapter("/app/v2-bridge-adapter.ts", ts.replace("function", "function "))).toBe(false);
    expect(isGeneratedAdapter("/app/client.ts", ts)).toBe(false);
    expect(isGeneratedAdapter("/app/v2-bridge-adapter.js", cjs)).toBe(false);
    expect(isGeneratedAdapter("/app/v2-bridge-adapter.mts", ts)).toBe(false);
  });
});
