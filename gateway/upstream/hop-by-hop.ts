// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: a proxy removes
// them in both directions, together with every header the Connection field names.
import type { IncomingHttpHeaders } from "node:http";

const ALWAYS = ["connection", "keep-alive", "proxy-connection", "te", "upgrade", "proxy-authorization", "proxy-authenticate"];

/**
 * Never removed even when Connection names them: end-to-end credentials pass through untouched, and
 * message framing is Node's job (dropping Content-Length would change how the body is sent).
 */
const PROTECTED = new Set(["authorization", "host", "content-length", "transfer-encoding", "content-type", "x-request-id"]);

/** Lower-case names of the hop-by-hop headers of one message. */
export function hopByHopHeaders(headers: IncomingHttpHeaders): string[] {
  const names = new Set(ALWAYS);
  const connection = headers.connection;
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
  const tokens = String(headers.connection ?? "").toLowerCase().split(",").map((t) => t.trim());
  return tokens.includes("close") || (httpVersion === "1.0" && !tokens.includes("keep-alive"));
}
