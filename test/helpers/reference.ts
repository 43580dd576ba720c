// Reference-document access for tests: skip (with the reason) when ../shared/reference is absent.
import { referenceMissingReason } from "../../openapi/reference.ts";

export const missingReference = referenceMissingReason();

/** Suite title that carries the skip reason, so a skipped run says why. */
export function refSuite(title: string): string {
  return missingReference ? `${title} (skipped: ${missingReference})` : title;
}
