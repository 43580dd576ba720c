// A local HTTP server standing in for the vendor's document URLs, so no test touches the network.
// Each path answers as told: the document, a status, a stall, or an endless/oversized body.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Answer =
  | { body: string | Buffer }
  | { status: number }
  /** Sends the headers, then nothing for this long. */
  | { stallMs: number }
  /** `bytes` of JSON-ish filler, with or without a Content-Length announcing it. */
  | { oversized: number; declareLength: boolean };

export type DocumentServer = { url: string; hits: string[]; close(): Promise<void> };

export async function startDocumentServer(answers: Record<string, Answer>): Promise<DocumentServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    const a = answers[req.url ?? ""];
    if (!a) return void res.writeHead(404).end("not found");
    if ("status" in a) return void res.writeHead(a.status).end("no");
    if ("body" in a) return void res.writeHead(200, { "content-type": "application/json" }).end(a.body);
    if ("stallMs" in a) {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      const t = setTimeout(() => res.end("}"), a.stallMs);
      res.on("close", () => clearTimeout(t));
      return;
    }
    res.writeHead(200, a.declareLength ? { "content-length": String(a.oversized) } : {});
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = a.oversized;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(chunk.subarray(0, n))) return void res.once("drain", pump);
      }
      res.end();
    };
    res.on("error", () => {});
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
