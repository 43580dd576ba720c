// Findings and diffs quote source lines: never let a bearer token or API key through. What a key
// looks like is product/redact.ts (the gateway's logs hide the same shapes); here only what source
// code adds: a quoted value assigned to a key-named name.
import { redactKeys } from "../product/redact.ts";

/** The marker in reports (audit text, JSON, SARIF). */
export const REDACTED = "<redacted>";

// apiKey: "…", token = '…', "Authorization": "…", secret: `…`
const ASSIGNED = /((?:api[_-]?key|apikey|token|secret|password|authorization|x-api-key)["']?\s*[:=]\s*)(["'`])((?:(?!\2).)+)\2/gi;

export function redact(line: string): string {
  return redactKeys(line, REDACTED).replace(ASSIGNED, (_m, head: string, q: string) => `${head}${q}${REDACTED}${q}`);
}
