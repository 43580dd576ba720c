// The shape of a gateway emulation (one file per name in mappings/data/emulations.ts).
import type { V1Call } from "../upstream/call.ts";
import type { V1Answer } from "../translation/translate-response.ts";
import type { UpstreamResponse } from "../upstream/upstream.ts";

export type SendFn = (body: Record<string, unknown> | undefined) => Promise<UpstreamResponse>;

export interface Emulation {
  /** Name as in mappings/data/emulations.ts. */
  name: string;
  /** v1 body fields (lens decision "emulate") this emulation consumes. */
  fields?: string[];
  /** Replaces the whole operation (no standard upstream call). */
  handle?(call: V1Call): Promise<V1Answer>;
  /** Runs before the body lens: may adjust the v1 body or load lookups into call.convert. */
  prepare?(call: V1Call): Promise<void>;
  /** Wraps the upstream call (retries, follow-up calls). */
  send?(call: V1Call, body: Record<string, unknown> | undefined, next: SendFn): Promise<UpstreamResponse>;
  /** Runs on the successful v2 records before they are translated to v1 (may load lookups). */
  beforeRead?(call: V1Call, v2Records: Record<string, unknown>[]): Promise<void>;
  /** Runs on the translated v1 answer. */
  shape?(call: V1Call, answer: V1Answer): V1Answer;
  /** Adds to the translated v1 answer what further v2 calls can serve (v1 include expansions). */
  expand?(call: V1Call, answer: V1Answer): Promise<V1Answer>;
}
