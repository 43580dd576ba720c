// The evaluator's finite string sets (evaluate/finite-strings.ts), the action body computed from a
// segment (finite-paths.ts), and which body values may be written twice (computed-fields.ts).
import { describe, expect, it } from "vitest";
import { Node, Project, SyntaxKind } from "../../codemod/ts-morph.ts";
import { finiteStrings } from "../../codemod/engine/evaluate/finite-strings.ts";
import { computedBody, type FinitePath } from "../../codemod/engine/finite-paths.ts";
import { isPureExpression } from "../../codemod/engine/computed-fields.ts";
import type { OperationMapping } from "../../mappings/index.ts";

const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true } });
let n = 0;
const file = (text: string) => project.createSourceFile(`/case${n++}.ts`, text);

/** The set answered for the argument of each `use(…)` call, by enclosing function name. */
function sets(text: string): Record<string, string[] | undefined> {
  const sf = file(`${text}\ndeclare function use(x: unknown): void;\ndeclare function other(): void;`);
  const out: Record<string, string[] | undefined> = {};
  for (const call of sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    if (call.getExpression().getText() !== "use") continue;
    out[call.getFirstAncestorByKind(SyntaxKind.FunctionDeclaration)!.getName()!] = finiteStrings(call.getArguments()[0]!);
  }
  return out;
}

describe("finite string sets", () => {
  it("reads them from types, values and guards, each narrowing the others", () => {
    expect(
      sets(`
const ACTIONS = new Set(["start", "stop", "restart"]);
const LIST = ["start", "stop"] as const;
const MAP = { start: 1, stop: 2 };
enum Power { On = "start", Off = "stop" }
declare const flag: boolean;
function union(a: "start" | "stop") { use(a); }
function setGuard(a: string) { if (!ACTIONS.has(a)) throw new Error(); use(a); }
function arrayGuard(a: string) { if (["start", "restart"].includes(a)) { use(a); } }
function equalities(a: string) { if (a !== "stop" && a !== "restart") return; use(a); }
function narrowed(a: "start" | "stop" | "reset") { if (!ACTIONS.has(a)) return; use(a); }
function viaSwitch(a: string) { switch (a) { case "start": case "stop": use(a); break; default: other(); } }
function viaEnum(a: Power) { use(a); }
function viaKeyof(a: keyof typeof MAP) { use(a); }
function viaLoop() { for (const a of LIST) use(a); }
function viaElement(i: number) { const a = LIST[i]; use(a); }
function viaConst() { const a = flag ? "start" : "reset"; use(a); }
function viaCallers(id: string, a: string) { use(a); }
function caller1() { viaCallers("x", "stop"); }
function caller2() { viaCallers("y", "restart"); }
`),
    ).toEqual({
      union: ["start", "stop"],
      setGuard: ["start", "stop", "restart"],
      arrayGuard: ["start", "restart"],
      equalities: ["stop", "restart"],
      narrowed: ["start", "stop"],
      viaSwitch: ["start", "stop"],
      viaEnum: ["start", "stop"],
      viaKeyof: ["start", "stop"],
      viaLoop: ["start", "stop"],
      viaElement: ["start", "stop"],
      viaConst: ["start", "reset"],
      viaCallers: ["stop", "restart"],
    });
  });

  it("answers nothing where the value is not bounded", () => {
    expect(
      sets(`
const ACTIONS = new Set(["start", "stop"]);
declare let later: string[];
function plain(a: string) { use(a); }
function reassigned(a: string) { if (!ACTIONS.has(a)) throw new Error(); a = a.trim(); use(a); }
function guardDoesNotExit(a: string) { if (!ACTIONS.has(a)) other(); use(a); }
function guardAfter(a: string) { use(a); if (!ACTIONS.has(a)) throw new Error(); }
function unknownList(a: string) { if (later.includes(a)) use(a); }
export function exported(a: string) { use(a); }
function passedOn(a: string) { use(a); }
function callers() { exported("stop"); passedOn("stop"); ["start"].forEach(passedOn); }
`),
    ).toEqual({ plain: undefined, reassigned: undefined, guardDoesNotExit: undefined, guardAfter: undefined, unknownList: undefined, exported: undefined, passedOn: undefined });
  });
});

describe("the fixed body computed from a segment", () => {
  const op = (fixed: Record<string, unknown>) => ({ request: { fixedBody: fixed } }) as unknown as OperationMapping;
  const site = (text: string) => {
    const call = file(text).getFirstDescendantByKindOrThrow(SyntaxKind.CallExpression);
    // The last segment of the template is the action.
    return { call, hole: call.getDescendantsOfKind(SyntaxKind.TemplateSpan).at(-1)!.getExpression() };
  };
  const fp = (hole: Node, values: string[]): FinitePath => ({ holes: [{ node: hole, values }], expansions: values.map((v) => ({ values: [v], path: `/pods/x/${v}`, matches: [] })) });

  it("writes the segment itself where v2 takes the same name, and a literal map where names differ", () => {
    const { call, hole } = site("declare const id: string, action: 'start' | 'reset';\nfetch(`/pods/${id}/${action}`);");
    expect(computedBody(fp(hole, ["start", "reset"]), [op({ action: "start" }), op({ action: "reset" })], call, '"', true)).toEqual({ computed: "{ action }", shown: "{ action }" });
    expect(computedBody(fp(hole, ["start", "reset"]), [op({ action: "start" }), op({ action: "restart" })], call, '"', true)!.computed).toBe('{ action: ({ start: "start", reset: "restart" } as const)[action] }');
    expect(computedBody(fp(hole, ["start", "reset"]), [op({ action: "start" }), op({ action: "restart" })], call, "'", false)!.computed).toBe("{ action: ({ start: 'start', reset: 'restart' })[action] }");
  });

  it("refuses a segment that computes something (it would run again in the body)", () => {
    const { call, hole } = site("declare const id: string; declare function pick(): 'start' | 'stop';\nfetch(`/pods/${id}/${pick()}`);");
    expect(computedBody(fp(hole, ["start", "stop"]), [op({ action: "start" }), op({ action: "stop" })], call, '"', true)).toBeNull();
  });
});

describe("pure body values", () => {
  const expr = (text: string) => file(`declare const a: any, b: any;\nconst x = ${text};`).getVariableDeclarationOrThrow("x").getInitializerOrThrow();
  it("are names, literals, property reads, operators and conditionals", () => {
    for (const t of ["a", "a.b.c", "a ? 0 : 20", "a.size * 2 + 1", "!a && b", "a ?? 'x'", "[a, b]", "{ k: a }", "`${a}-x`", "a[0]"]) expect(isPureExpression(expr(t)), t).toBe(true);
  });
  it("are not calls, assignments, awaits or increments", () => {
    for (const t of ["a()", "a.b()", "(a = 1)", "a++", "--a", "new a()", "a ? b() : 0", "[a()]", "(a, b)"]) expect(isPureExpression(expr(t)), t).toBe(false);
  });
});
