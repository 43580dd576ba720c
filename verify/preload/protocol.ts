// What `v2-bridge verify` and its preload (running inside the client's processes) tell each other:
// through two environment variables on the way in, and one JSON line per event on the way out.
// Dependency-free: it is loaded into every Node process the client's command starts.

/** JSON object: API host (lowercase) → local origin its requests go to. */
export const ROUTES_ENV = "V2_BRIDGE_VERIFY_ROUTES";
/** File each process appends its events to (one JSON object per line). */
export const EVENTS_ENV = "V2_BRIDGE_VERIFY_EVENTS";
/** Request ids the preload gives calls that carry none (the gateway forwards them to every v2 call it makes for one). */
export const REQUEST_ID_PREFIX = "v2b-verify-";

/** A stack frame of the client's code, as the process saw it (source-mapped where maps exist). */
export type Frame = { file: string; line: number; column: number; fn?: string };

/** Which door a call came through. */
export type Via = "fetch" | "undici" | "http";

export type ProcessEvent = { kind: "process"; pid: number; script?: string };

export type CallEvent = {
  kind: "call";
  /** The request id the call carried to the local servers (its own x-request-id, or one given by the preload). */
  id: string;
  pid: number;
  via: Via;
  method: string;
  /** The URL the client asked for (query values of credential-like names masked). */
  url: string;
  /** The client's frames, innermost first (library and Node frames left out). */
  frames: Frame[];
};

export type VerifyEvent = ProcessEvent | CallEvent;
