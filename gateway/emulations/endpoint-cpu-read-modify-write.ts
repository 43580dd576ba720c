// endpointCpuReadModifyWrite: v2 `cpu` on an endpoint update is a complete replacement list of
// {id, vcpuCount}; v1 could send vcpuCount alone (which the lens cannot place without the flavours)
// or cpuFlavorIds alone (which would reset vcpuCount to 2). The gateway reads the endpoint and
// completes the pair from its current CPU selection. GPU endpoints are left to v2 to refuse.
import { dropField } from "../translation/drops.ts";
import { currentRecord } from "./current-record.ts";
import type { Emulation } from "./types.ts";

export const endpointCpuReadModifyWrite: Emulation = {
  name: "endpointCpuReadModifyWrite",
  async prepare(call) {
    const body = call.v1Body;
    if (!body || !call.v2Path) return;
    const hasFlavours = body.cpuFlavorIds !== undefined;
    const hasCount = body.vcpuCount !== undefined;
    if (hasFlavours === hasCount) return;
    const cpu = (await currentRecord(call)).cpu as { id: string; vcpuCount: number }[] | undefined;
    if (!Array.isArray(cpu) || !cpu.length) {
      if (hasCount) dropField(call, "vcpuCount", "vcpuCount ignored: the endpoint is not a CPU endpoint");
      return;
    }
    call.v1Body = hasCount ? { ...body, cpuFlavorIds: cpu.map((c) => c.id) } : { ...body, vcpuCount: cpu[0]!.vcpuCount };
  },
};
