// The lost answer fields travel as one list from the table (lost-fields.ts → `ex.lostDrops`) and are
// counted and redacted as a whole (docs/performance.md, session 37). Each shortcut must give what
// the name-by-name path gives: the usage store fed (dropped, lost) against one fed the joined list,
// `redactTexts` against redacting each name, and the remembered V2-Bridge-Warning against a fresh one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UsageStore } from "../../gateway/usage/usage.ts";
import { redactText, redactTexts } from "../../gateway/observability/redact.ts";
import { boundedWarnings } from "../../gateway/upstream/headers.ts";

const op = (key: string) => ({ key, v1: { method: "GET", path: `/${key}` } });

// A few fixed lists, as the table's sets are (the same array object every time), some overlapping
// the names a client sends, one too long for a request's bound, one with a name over the length bound.
const inputs = ["imageName", "answer.templateId", "x".repeat(70), "countryCodes", "stray"];
const lostLists: readonly string[][] = [
  ["answer.templateId", "answer.machineId", "answer.gpu.oneWeekPrice"],
  ["answer.templateId"],
  Array.from({ length: 40 }, (_, i) => `answer.field${i}`),
  [`answer.${"y".repeat(70)}`, "answer.savingsPlans"],
].map((l) => Object.freeze(l) as string[]);

const call = fc.record({
  op: fc.constantFrom("ListPods", "GetPod", "CreatePod"),
  client: fc.constantFrom("k_1", "k_2", "k_3", "k_4"),
  dropped: fc.subarray(inputs),
  doubled: fc.boolean(),
  lost: fc.option(fc.constantFrom(...lostLists.keys()), { nil: undefined }),
});

describe("counting a lost list whole", () => {
  it("gives the snapshot and the counted names of counting the joined list name by name", () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 40 }), fc.integer({ min: 1, max: 3 }), (calls, maxClients) => {
        let t1 = 0;
        let t2 = 0;
        const whole = new UsageStore(maxClients, 2, () => t1++);
        const joined = new UsageStore(maxClients, 2, () => t2++);
        joined.since = whole.since;
        const seenWhole: (readonly string[])[] = [];
        const seenJoined: (readonly string[])[] = [];
        whole.onRecord = (...args) => void seenWhole.push([...args[5]]);
        joined.onRecord = (...args) => void seenJoined.push([...args[5]]);
        for (const c of calls) {
          const dropped = c.doubled ? [...c.dropped, ...c.dropped] : c.dropped;
          const lost = c.lost === undefined ? undefined : lostLists[c.lost]!;
          whole.record(op(c.op), c.client, "ua", 200, dropped, lost);
          joined.record(op(c.op), c.client, "ua", 200, [...dropped, ...(lost ?? [])]);
        }
        expect(whole.snapshot()).toEqual(joined.snapshot());
        expect(JSON.stringify(whole.snapshot())).toBe(JSON.stringify(joined.snapshot()));
        expect(seenWhole).toEqual(seenJoined);
      }),
      { numRuns: 120 },
    );
  });

  it("keeps the bound on overall drop entries", () => {
    const whole = new UsageStore(10, 10, () => 0);
    const joined = new UsageStore(10, 10, () => 0);
    joined.since = whole.since;
    const big = Object.freeze(Array.from({ length: 60 }, (_, i) => `answer.f${i}`));
    for (let k = 0; k < 40; k++) {
      whole.record(op(`Op${k}`), "k_1", "ua", 200, [], big);
      whole.record(op(`Op${k}`), "k_1", "ua", 200, [], big);
      joined.record(op(`Op${k}`), "k_1", "ua", 200, [...big]);
      joined.record(op(`Op${k}`), "k_1", "ua", 200, [...big]);
    }
    expect(whole.snapshot().drops?.length).toBe(2_000);
    expect(JSON.stringify(whole.snapshot())).toBe(JSON.stringify(joined.snapshot()));
  });
});

describe("redactTexts", () => {
  const names = Object.freeze(["answer.templateId", "answer.machine.maintenanceStart", "answer.gpu.oneWeekPrice", "answer.rpa_ABCDEFGHIJKLMNOPQRSTUV"]);
  const plain = Object.freeze(["answer.templateId", "answer.machineId"]);
  it("answers the list itself only where redacting each name changes none", () => {
    const secret = fc.oneof(fc.constantFrom("templateId", "maintenance", "machine.m", "Id\nanswer", "bench_key", "oneWeekPrice", ""), fc.string({ minLength: 6, maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(secret, { maxLength: 3 }), fc.constantFrom(names, plain), (secrets, list) => {
        const got = redactTexts(list, secrets);
        const each = list.map((t) => redactText(t, secrets));
        expect(got).toEqual(each);
        if (got === list) expect(each).toEqual([...list]);
      }),
      { numRuns: 500 },
    );
    expect(redactTexts(plain, ["bench_key"])).toBe(plain);
    expect(redactTexts(plain, ["machineId"])).toEqual(["answer.templateId", "answer.[redacted]"]);
    // A key-shaped name is cut whatever the secrets: never the list as given.
    expect(redactTexts(names, [])).not.toBe(names);
  });
});

describe("the remembered V2-Bridge-Warning", () => {
  it("is the header a fresh serialisation gives, for lists that share a start, and past the memo's bound", () => {
    const texts = ["a", "b", "a,b", "1:a", "ü", "x".repeat(400), "a\nb"];
    const fresh = (list: string[]) => {
      // A list longer than the memo takes is serialised afresh every time.
      return boundedWarnings([...list, ...Array.from({ length: 5 }, (_, i) => `pad${i}`)]).header!.split(', "pad0"')[0];
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...texts), { minLength: 1, maxLength: 4 }), (list) => {
        expect(boundedWarnings(list).header).toBe(fresh(list));
        expect(boundedWarnings([...list]).header).toBe(fresh(list));
      }),
      { numRuns: 300 },
    );
    for (let i = 0; i < 3_000; i++) boundedWarnings([`w${i}`, "b"]);
    expect(boundedWarnings(["w1", "b"]).header).toBe('"w1", "b"');
  });
});
