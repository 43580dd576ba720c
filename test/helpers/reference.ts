// Reference-document access for tests: skip (with the reason) when the documents are not found (user cache, ../shared/reference).
import { describe, it } from "vitest";
import { referenceMissingReason } from "../../openapi/reference.ts";

export const missingReference = referenceMissingReason();

/** Suite title that carries the skip reason, so a skipped run says why. */
export function refSuite(title: string): string {
  return missingReference ? `${title} (skipped: ${missingReference})` : title;
}

/**
 * A suite that reads the documents in its body. Without them it is one skipped test carrying the
 * reason: vitest runs the body of a skipped suite too (to list its tests), and these would throw.
 */
export function refDescribe(title: string, body: () => void): void {
  if (missingReference) describe(refSuite(title), () => it.skip("needs the reference documents", () => {}));
  else describe(title, body);
}
