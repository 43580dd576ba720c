// Differential test: for every converter the codemod can write, the source it writes (evaluated on
// literal inputs) computes what the converter's toV2 computes. Samples are valid v1 values.
import { describe, expect, it } from "vitest";
import { converters } from "../../mappings/index.ts";

const samples: Record<string, unknown[][]> = {
  flashboot: [[true], [false], [undefined]],
  scaling: [["QUEUE_DELAY", 4], ["REQUEST_COUNT", 3], [undefined, 7], ["REQUEST_COUNT", undefined], [undefined, undefined]],
  idleTimeout: [[5, "QUEUE_DELAY"], [5, "REQUEST_COUNT"], [30, undefined], [undefined, "REQUEST_COUNT"], [undefined, undefined]],
  podMounts: [
    [20, "/workspace", undefined],
    [0, undefined, undefined],
    [0, "/data", undefined],
    [50, undefined, undefined],
    [undefined, "/data", undefined],
    [20, "/vol", "nv_1"],
    [undefined, undefined, "nv_1"],
    [undefined, undefined, undefined],
    [20, "/workspace", undefined, "GPU"],
    [0, undefined, undefined, "GPU"],
    [20, undefined, undefined, "CPU"],
    [0, undefined, undefined, "CPU"],
    [undefined, undefined, "nv_1", "CPU"],
    [undefined, undefined, undefined, "CPU"],
  ],
  // volumeInGb 0 (remove the volume) is refused by toV2 and marked for review by the codemod.
  podVolumeUpdate: [[20, "/workspace"], [50, undefined], [0, "/workspace"], [undefined, "/x"], [undefined, undefined]],
  templateVolumeUpdate: [[20, "/workspace"], [50, undefined], [0, "/workspace"], [undefined, "/x"], [undefined, undefined]],
  templateMounts: [[20, "/workspace"], [0, "/workspace"], [0, undefined], [10, undefined], [undefined, "/x"], [undefined, undefined]],
  podCompute: [
    ["GPU", ["NVIDIA RTX A5000"], 1, undefined, undefined, undefined],
    [undefined, ["NVIDIA RTX A5000", "NVIDIA L4"], 2, ["12.4"], undefined, undefined],
    ["CPU", undefined, undefined, undefined, ["cpu3c"], 4],
    ["CPU", undefined, undefined, undefined, undefined, undefined],
    [undefined, undefined, undefined, undefined, undefined, undefined],
  ],
  endpointCpu: [[["cpu3c", "cpu5c"], 4, "CPU"], [["cpu3c"], undefined, undefined], [undefined, undefined, "CPU"], [undefined, undefined, "GPU"], [undefined, 4, undefined]],
  networkVolumeList: [["nv_1", undefined], [undefined, ["nv_1", "nv_2"]], ["nv_1", ["nv_2"]], [undefined, undefined]],
};

const literal = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));
const evaluate = (src: string | undefined) => (src === undefined ? undefined : new Function(`return (${src});`)());

describe("every converter's codemod form computes what its toV2 computes", () => {
  const withCodemod = Object.values(converters).filter((c) => c.codemod);

  it("every converter the codemod writes has samples", () => {
    for (const c of withCodemod) expect(samples[c.name], c.name).toBeDefined();
  });

  it.each(withCodemod.map((c) => [c.name, c] as const))("%s", (name, c) => {
    for (const inputs of samples[name] ?? []) {
      const written = c.codemod!(inputs.map(literal));
      if (written === null) continue; // the codemod marks the site for review instead
      const expected = c.toV2(inputs, {});
      expect(written.map(evaluate), `${name}(${JSON.stringify(inputs)}) → ${JSON.stringify(written)}`).toEqual(expected);
    }
  });
});
