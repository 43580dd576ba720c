// One upstream call read whole, through undici's dispatcher with a plain handler. `pool.request()`
// makes an async resource and a body stream per call, which cost more CPU than the rest of the
// call's bookkeeping, and the gateway reads every answer whole anyway. The pool's own limits still
// apply (connect, headers and body timeouts; maxResponseSize in its parser).
import { util as undiciUtil, type Dispatcher, type Pool } from "undici";
import type { UpstreamSignal } from "./deadline.ts";

export interface Exchanged {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The answer's body, decoded as UTF-8. */
  text: string;
}

/** Thrown when a body (declared or actual) would pass `limit` bytes; the call is aborted, so undici drops the connection. */
export class TooLarge extends Error {}

export function exchange(pool: Pool, options: Dispatcher.DispatchOptions, limit: number, signal?: UpstreamSignal): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let chunks: Buffer[] = [];
    let bytes = 0;
    let abort: ((reason: Error) => void) | undefined;
    let settled = false;
    const onAbort = () => abort?.((signal!.reason as Error | undefined) ?? new Error("aborted"));
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      signal?.removeListener("abort", onAbort);
      if (error) return reject(error);
      resolve({ status, headers, text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes)).toString("utf8") });
    };
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortCall) {
        abort = abortCall;
        if (signal?.aborted) onAbort();
      },
      onHeaders(statusCode, rawHeaders) {
        if (statusCode < 200) return true; // 1xx: the real answer follows
        status = statusCode;
        headers = undiciUtil.parseHeaders(rawHeaders) as Record<string, string | string[] | undefined>;
        if (Number(headers["content-length"] ?? 0) > limit) {
          abort?.(new TooLarge());
          return false;
        }
        return true;
      },
      onData(chunk) {
        bytes += chunk.length;
        if (bytes > limit) {
          chunks = [];
          abort?.(new TooLarge());
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        settle(null);
      },
      onError(error) {
        settle(error);
      },
    };
    if (signal) {
      if (signal.aborted) return reject((signal.reason as Error | undefined) ?? new Error("aborted"));
      signal.on("abort", onAbort);
    }
    pool.dispatch(options, handler);
  });
}
