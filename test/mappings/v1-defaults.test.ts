// v1's documented defaults apply before translation, except where v2 would reject the result
// (lens `v1DefaultsExcept`): no default pod volume on a CPU pod, no default idle timeout with
// REQUEST_COUNT scaling. The codemod can ask the same question with the literal values it sees.
import { describe, expect, it } from "vitest";
import { applicableV1Defaults, lensNamed, toV2 } from "../../mappings/index.ts";

describe("v1 defaults with exceptions", () => {
  const pod = lensNamed("pod-create");
  const endpoint = lensNamed("endpoint-create");

  it("leaves v1's default pod volume out for CPU pods only", () => {
    expect(applicableV1Defaults(pod, { computeType: "CPU" }).volumeInGb).toBeUndefined();
    expect(applicableV1Defaults(pod, {}).volumeInGb).toBe(20);
    expect(applicableV1Defaults(pod, { computeType: "GPU" }).volumeInGb).toBe(20);
    // A template gives container settings only: v1's compute default holds with one too (v1DefaultsAlways), the volume's does not.
    expect(applicableV1Defaults(pod, { templateId: "t", computeType: "GPU" })).toEqual({ computeType: "GPU" });
    expect(toV2(pod, { computeType: "CPU" }).body.mounts).toBeUndefined();
    expect(toV2(pod, { gpuTypeIds: ["NVIDIA L4"] }).body.mounts).toEqual({ persistent: { size: 20, path: "/workspace" } });
  });

  it("leaves v1's default idle timeout out with REQUEST_COUNT scaling", () => {
    expect(applicableV1Defaults(endpoint, { scalerType: "REQUEST_COUNT" }).idleTimeout).toBeUndefined();
    expect(applicableV1Defaults(endpoint, {}).idleTimeout).toBe(5);
    const r = toV2(endpoint, { templateId: "t", scalerType: "REQUEST_COUNT", scalerValue: 2 });
    expect(r.body.workers).toBeUndefined();
    expect(r.warnings).toEqual([]);
  });

  it("a client's own value is the converter's to judge: explicit CPU pod volume is a rejection, explicit idle timeout a warning", () => {
    expect(toV2(pod, { computeType: "CPU", volumeInGb: 20 }).rejections.join()).toMatch(/CPU pods cannot have a pod volume/);
    const r = toV2(endpoint, { templateId: "t", scalerType: "REQUEST_COUNT", idleTimeout: 9 });
    expect(r.body.workers).toBeUndefined();
    expect(r.warnings).toEqual([expect.stringMatching(/^idleTimeout ignored/)]);
  });
});
