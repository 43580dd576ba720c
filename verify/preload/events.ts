// The preload's side of the event file: request ids and one appended JSON line per event. Appends
// are synchronous and one write each, so the lines of several processes never interleave.
import { appendFileSync } from "node:fs";
import { REQUEST_ID_PREFIX, type VerifyEvent } from "./protocol.ts";

let counter = 0;

/** A request id unique across the command's processes (and valid for the gateway's x-request-id). */
export function nextRequestId(): string {
  return `${REQUEST_ID_PREFIX}${process.pid}-${++counter}`;
}

export function writeEvent(file: string, event: VerifyEvent): void {
  try {
    appendFileSync(file, JSON.stringify(event) + "\n");
  } catch {
    // The verify run reports missing calls; the client must never fail because of the recorder.
  }
}

const CREDENTIAL_NAME = /key|token|secret|password|auth|signature/i;

/** The URL as recorded: query values with credential-like names masked. */
export function recordedUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  for (const name of [...copy.searchParams.keys()]) if (CREDENTIAL_NAME.test(name)) copy.searchParams.set(name, "***");
  return copy.href;
}
