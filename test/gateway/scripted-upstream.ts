// A loopback v2 stand-in whose behaviour each test sets (`upstream.handle = ...`): for answers no
// real v2 gives (endless bodies, slow answers, dropped connections). Tracks its sockets so closing
// never waits on a keep-alive connection.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ScriptedUpstream {
  url: string;
  handle: http.RequestListener;
  /** Requests seen, as "METHOD /path". */
  seen: string[];
  close(): Promise<void>;
}

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const sockets = new Set<Socket>();
  const upstream: ScriptedUpstream = {
    url: "",
    seen: [],
    handle: (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("[]"),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    upstream.seen.push(`${req.method} ${req.url}`);
    upstream.handle(req, res);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

/** JSON answer helper. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": status >= 400 ? "application/problem+json" : "application/json", "content-length": String(Buffer.byteLength(text)), ...headers }).end(text);
}

/**
 * The drain tests' upstream: answers at once, holds `slow-*` requests (by x-request-id) until the
 * test releases `held`, never answers `stuck-*`; `arrival(id)` resolves when that request arrives.
 */
export function holdSlowAnswers(upstream: ScriptedUpstream): { held: (() => void)[]; arrival(id: string): Promise<void> } {
  const held: (() => void)[] = [];
  const waiting = new Map<string, () => void>();
  upstream.handle = (req, res) => {
    req.resume();
    const id = String(req.headers["x-request-id"] ?? "");
    waiting.get(id)?.();
    if (id.startsWith("stuck")) return;
    const answer = () => !res.destroyed && sendJson(res, 200, { pods: [] });
    if (id.startsWith("slow")) held.push(answer);
    else answer();
  };
  return { held, arrival: (id) => new Promise<void>((resolve) => waiting.set(id, resolve)) };
}

/** A GET over a given (keep-alive) agent: status, body and the answer's Connection header. */
export function agentGet(url: string, agent: http.Agent, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers, timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("client timeout")));
    req.on("error", reject);
  });
}
