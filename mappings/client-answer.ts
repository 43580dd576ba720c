// The answer client code reads from an operation: the v1 document's shape, or, where v1
// documents no content and v2 answers a record (`v2AnswerRecord`: a pod action answers the
// updated pod), that record. The codemod follows reads of it and the boundary adapter converts
// it; the gateway answers as the v1 document says (`response`).
import type { OperationMapping, ResponseShape } from "./types.ts";

export function clientAnswer(op: Pick<OperationMapping, "response" | "v2AnswerRecord">): ResponseShape {
  return op.response.kind === "empty" && op.v2AnswerRecord ? { kind: "record", lens: op.v2AnswerRecord.name } : op.response;
}

/** Whether v1 documents the answer as empty while v2 answers a record client code may read. */
export function answersUndocumentedRecord(op: Pick<OperationMapping, "response" | "v2AnswerRecord">): boolean {
  return op.response.kind === "empty" && !!op.v2AnswerRecord;
}
