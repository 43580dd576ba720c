import { Project, SyntaxKind } from "../codemod/ts-morph.ts";
import { newAnalysis, addFile } from "/work/main/codemod/engine/state.ts";
import { httpCall } from "/work/main/codemod/engine/transports/index.ts";
const p = new Project({ compilerOptions: { allowJs: true } });
const sf = p.addSourceFileAtPath("/tmp/t2/a.js");
const a = newAnalysis(undefined);
addFile(a, sf, "a.js");
for (const c of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
  const h = httpCall(a, c as any);
  if (h) console.log(c.getText().slice(0, 40), h.lib, JSON.stringify(h.method), h.body?.node.getText());
}
