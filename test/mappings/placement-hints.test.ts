// v1 pod placement filters v2 lacks (drop-with-warning). A value that asks for nothing is dropped
// without a warning by the gateway and without a mark by the codemod (the lens's harmlessValue):
// v1 `supportPublicIp` is "set to true if you need the Pod to expose a public IP", so false asks for
// nothing. True still warns: v1 placed the pod only where a public IP was offered.
import { describe, expect, it } from "vitest";
import { toV2 } from "../../mappings/index.ts";

const pod = { name: "w", imageName: "img", gpuTypeIds: ["NVIDIA L4"] };

describe("pod placement hints", () => {
  it("drops supportPublicIp: false without a warning", () => {
    const r = toV2("pod-create", { ...pod, supportPublicIp: false });
    expect(r.warnings.filter((w) => w.includes("supportPublicIp"))).toEqual([]);
    expect(r.body).not.toHaveProperty("supportPublicIp");
    expect(r.body).toEqual(toV2("pod-create", pod).body);
  });

  it("warns for supportPublicIp: true, a filter v2 cannot apply", () => {
    const r = toV2("pod-create", { ...pod, supportPublicIp: true });
    expect(r.warnings.some((w) => w.includes("supportPublicIp ignored"))).toBe(true);
  });
});
