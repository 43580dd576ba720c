import { runCodemod } from "../codemod/project.ts";
import { copyCase, cleanup, fixtureCases } from "../test/codemod/fixture-helpers.ts";
const cases = fixtureCases().slice(0, 60);
for (const name of cases.slice(0, 5)) { const tmp = copyCase(name); await runCodemod({ paths: [tmp], write: true }); cleanup(tmp); }
const c = process.cpuUsage();
for (const name of cases) { const tmp = copyCase(name); await runCodemod({ paths: [tmp], write: true }); await runCodemod({ paths: [tmp], write: true }); cleanup(tmp); }
const u = process.cpuUsage(c);
console.log(process.env.LABEL, cases.length, "cases ×2 runs:", ((u.user + u.system) / 1000 / cases.length).toFixed(0), "ms CPU per case");
