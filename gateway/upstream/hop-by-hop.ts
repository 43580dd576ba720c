// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: a proxy removes
// them in both directions, together with every header the Connection field names.
import type { IncomingHttpHeaders } from "node:http";

const ALWAYS: readonly string[] = Object.freeze(["connection", "keep-alive", "proxy-connection", "te", "upgrade", "proxy-authorization", "proxy-authenticate"]);

/** Connection values that name no other header. */
const PLAIN_CONNECTION = new Set(["keep-alive", "close", "Keep-Alive", "Close"]);

/**
 * Never removed even when Connection names them: end-to-end credentials pass through untouched, and
 * message framing is Node's job (dropping Content-Length would change how the body is sent).
 */
const PROTECTED = new Set(["authorization", "host", "content-length", "transfer-encoding", "content-type", "x-request-id"]);

/** Lower-case names of the hop-by-hop headers of one message. */
export function hopByHopHeaders(headers: IncomingHttpHeaders): readonly string[] {
  const connection = headers.connection;
  // The usual case, on every proxied request and answer: nothing beyond the fixed names.
  if (connection === undefined || PLAIN_CONNECTION.has(connection as string)) return ALWAYS;
  const names = new Set(ALWAYS);
  for (const value of Array.isArray(connection) ? connection : connection ? [connection] : []) {
    for (const token of value.split(",")) {
      const name = token.trim().toLowerCase();
      if (name && !PROTECTED.has(name)) names.add(name);
    }
  }
  return [...names];
}

/** Whether the client asked for this connection to close after the answer. */
export function clientAskedClose(httpVersion: string, headers: IncomingHttpHeaders): boolean {
  if (headers.connection === undefined) return httpVersion === "1.0";
  const tokens = String(headers.connection ?? "").toLowerCase().split(",").map((t) => t.trim());
  return tokens.includes("close") || (httpVersion === "1.0" && !tokens.includes("keep-alive"));
}
