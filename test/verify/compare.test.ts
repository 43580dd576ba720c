// The comparison by effect on its own, with runs written out by hand: what counts as a difference,
// what is only a note, and where the runs part ways.
import { describe, expect, it } from "vitest";
import { compareRuns, type RunSide } from "../../verify/compare-runs.ts";
import { Normaliser } from "../../verify/normalise.ts";
import type { CallEvent } from "../../verify/preload/protocol.ts";
import type { Records } from "../../verify/records.ts";
import type { Step } from "../../verify/steps.ts";

const TREE = "/project";
let n = 0;

/** One operation as a run made it, called from /project/<file>:<line>. */
function step(method: string, route: string, path: string, status: number, extra: Partial<Step> & { at?: string } = {}): Step {
  const { at = "client.ts:1", ...rest } = extra;
  const [file, line] = at.split(":");
  const call: CallEvent = { kind: "call", id: `c${++n}`, pid: 1, via: "fetch", method, url: `https://api.runpod.io${path}`, frames: [{ file: `${TREE}/${file}`, line: Number(line), column: 1, fn: "caller" }] };
  const label = route.endsWith("/action") ? `podAction(${String((rest.body as { action?: string } | undefined)?.action ?? "no action")})` : `${method} ${route}`;
  return { key: `${method} ${route}${route.endsWith("/action") ? ` ${String((rest.body as { action?: string } | undefined)?.action)}` : ""}`, label, method, route, path, status, write: method !== "GET", api: "v2", call, ...rest };
}

function side(steps: Step[], records: Records = {}, exitCode = 0, ids: [string, string][] = []): RunSide {
  const normaliser = new Normaliser();
  for (const [id, kind] of ids) normaliser.add(id, kind);
  return {
    steps,
    normaliser,
    tree: TREE,
    records,
    data: { steps, hits: [], calls: steps.map((s) => s.call!), processes: 1, gatewayOnly: [] },
    command: { exitCode, signal: null, timedOut: false, stdout: "", stderr: exitCode ? "Error: boom\n" : "", durationMs: 1, events: [] },
  };
}

const pod = (id: string, name: string) => ({ id, name, createdAt: "2026-01-01T00:00:01.000Z" });

describe("comparing two runs by effect", () => {
  it("different ids and times in the same records are the same effect", () => {
    const before = side([step("POST", "/v2/pods", "/v2/pods", 201, { answer: { id: "aaaaaaaaaaaaaa" } })], { pods: [pod("aaaaaaaaaaaaaa", "p")] }, 0, [["aaaaaaaaaaaaaa", "pod"]]);
    const after = side([step("POST", "/v2/pods", "/v2/pods", 201, { answer: { id: "bbbbbbbbbbbbbb" } })], { pods: [{ ...pod("bbbbbbbbbbbbbb", "p"), createdAt: "2026-01-01T00:00:09.000Z" }] }, 0, [["bbbbbbbbbbbbbb", "pod"]]);
    expect(compareRuns(before, after, { compareOutput: false })).toEqual({ divergence: null, differences: [], notes: [] });
  });

  it("a body difference that changes no record is a note; one that changes a record is a difference", () => {
    const records = { pods: [pod("aaaaaaaaaaaaaa", "p")] };
    const patch = (body: unknown) => step("PATCH", "/v2/pods/{id}", "/v2/pods/aaaaaaaaaaaaaa", 200, { body, at: "pods.ts:9" });
    const ids: [string, string][] = [["aaaaaaaaaaaaaa", "pod"]];
    const same = compareRuns(side([patch({ name: "p" })], records, 0, ids), side([patch({ name: "p", locked: false })], records, 0, ids), { compareOutput: false });
    expect(same.differences).toEqual([]);
    expect(same.notes).toEqual([expect.objectContaining({ kind: "body", severity: "note", details: ["locked: (absent) → false"] })]);

    const changed = compareRuns(side([patch({ name: "p" })], records, 0, ids), side([patch({ name: "q" })], { pods: [pod("aaaaaaaaaaaaaa", "q")] }, 0, ids), { compareOutput: false });
    expect(changed.differences.map((d) => [d.kind, d.message])).toEqual([
      ["body", "PATCH /v2/pods/{id} was sent a different body (answered 200 in both runs)"],
      ["record", "record pods pod#1 differs in 1 field"],
    ]);
    expect(changed.differences[1]!.details).toEqual(['name: "p" → "q"']);
    expect(changed.differences[1]!.after!.site!.chain).toEqual(["pods.ts:9 (caller)"]);
  });

  it("an extra read is a note; an extra write, a missing one, or another answer is a difference", () => {
    const list = (at: string) => step("GET", "/v2/pods", "/v2/pods", 200, { at });
    const del = step("DELETE", "/v2/pods/{id}", "/v2/pods/x", 204, { at: "pods.ts:20" });
    const extraRead = compareRuns(side([list("a.ts:1")]), side([list("a.ts:1"), list("a.ts:2")]), { compareOutput: false });
    expect([extraRead.divergence, extraRead.differences, extraRead.notes.map((i) => i.kind)]).toEqual([null, [], ["extra"]]);

    const extraWrite = compareRuns(side([list("a.ts:1")]), side([list("a.ts:1"), del]), { compareOutput: false });
    expect(extraWrite.differences.map((d) => d.kind)).toEqual(["extra"]);
    expect(extraWrite.divergence!.message).toMatch(/^The runs part ways after GET \/v2\/pods \(#1, at a\.ts:1 \(caller\)\): after made DELETE/);

    const answered = compareRuns(side([list("a.ts:1"), del]), side([list("a.ts:1"), { ...del, status: 404 }]), { compareOutput: false });
    expect(answered.differences.map((d) => [d.kind, d.message])).toEqual([["status", "DELETE /v2/pods/{id} was answered 204 before and 404 after"]]);
    expect(answered.divergence!.after!.site!.file).toBe("pods.ts");
  });

  it("the exit code, and with --compare-output the output (ids and times normalised)", () => {
    const before = side([], {}, 0, [["aaaaaaaaaaaaaa", "pod"]]);
    const after = side([], {}, 1, [["bbbbbbbbbbbbbb", "pod"]]);
    before.command.stdout = "made aaaaaaaaaaaaaa at 2026-01-01T00:00:01.000Z\nok\n";
    after.command.stdout = "made bbbbbbbbbbbbbb at 2026-01-01T00:00:05.000Z\nfailed\n";
    const result = compareRuns(before, after, { compareOutput: true });
    expect(result.differences.map((d) => [d.kind, d.message])).toEqual([
      ["exit-code", "the command exited 0 before and exited 1 after"],
      ["output", "the command printed something else (stdout, ids and times normalised)"],
    ]);
    expect(result.differences[1]!.details).toEqual(["- ok", "+ failed"]);
    expect(result.differences[0]!.details).toEqual(["after's stderr (last line):", "  Error: boom"]);
  });

  it("values under credential-like names are compared but never shown", () => {
    const create = (env: Record<string, string>, password: string) => step("POST", "/v2/registries", "/v2/registries", 201, { body: { name: "r", password, env } });
    const result = compareRuns(side([create({ HF_TOKEN: "hf_secret1" }, "pw-one")]), side([create({ HF_TOKEN: "hf_secret2" }, "pw-two")]), { compareOutput: false });
    const shown = JSON.stringify(result);
    expect(shown).not.toMatch(/hf_secret|pw-one|pw-two/);
    expect(result.notes[0]!.details).toEqual(["env.HF_TOKEN: differs (value not shown)", "password: differs (value not shown)"]);
  });
});
