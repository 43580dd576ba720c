// A create, update or action whose request reached the upstream but whose answer was lost
// (connection reset, timeout, deadline) may have happened anyway, and v2 has no idempotency keys:
// a blind retry can make a second pod. The v1 error says so and how to check first.
import type { OperationMapping } from "../../mappings/index.ts";
import type { V1Match } from "../../mappings/table.ts";
import { V1Error } from "../translation/v1-errors.ts";

const PAST = { Create: "created", Update: "changed", Start: "started", Stop: "stopped", Restart: "restarted", Reset: "reset" } as const;

/** Whether an upstream call changes state and cannot be repeated blindly. */
export function isWrite(method: string): boolean {
  return method === "POST" || method === "PATCH";
}

/** "CreateNetworkVolume" → { verb: "Create", noun: "network volume" }. */
function describe(op: OperationMapping): { verb: keyof typeof PAST | null; noun: string } {
  const key = op.key.split("#")[0]!;
  const m = /^(Create|Update|Start|Stop|Restart|Reset)([A-Z]\w*)$/.exec(key);
  const noun = (m ? m[2]! : "resource").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return { verb: (m?.[1] as keyof typeof PAST | undefined) ?? null, noun };
}

/** The v1 error for a write whose outcome is unknown: the original message, then what may have happened and how to check. */
export function lostWriteError(err: V1Error, match: V1Match, v1Body: Record<string, unknown> | undefined): V1Error {
  const op = match.operation;
  const { verb, noun } = describe(op);
  const [collection, idParam] = op.v1.path.split("/").filter(Boolean);
  const happened = verb ? PAST[verb] : "changed";
  let check: string;
  if (!idParam) {
    const name = typeof v1Body?.name === "string" && v1Body.name ? `one named ${JSON.stringify(v1Body.name)}` : "one created just now";
    check = `list them (GET /v1/${collection}) and look for ${name}`;
  } else {
    const id = match.params[idParam.replace(/^\{|\}$/g, "")] ?? idParam;
    check = `read it (GET /v1/${collection}/${encodeURIComponent(id)}) and see whether it was ${happened}`;
  }
  return new V1Error(
    err.status,
    `${err.message}, after the request was sent: the ${noun} may have been ${happened} anyway (v2 has no idempotency keys). Before retrying, ${check}.`,
    err.kind,
  );
}
