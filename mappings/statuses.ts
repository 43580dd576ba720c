// The success statuses v2 answers an operation's request with: the table's `v2.status`, one or several.
import type { OperationEntry } from "./types.ts";

export function v2Successes(op: Pick<OperationEntry, "v2">): number[] {
  return op.v2 ? [op.v2.status].flat() : [];
}
