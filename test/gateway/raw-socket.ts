// A raw client connection for the drain tests: one that sent nothing, or half a request.
import net from "node:net";

export interface RawSocket {
  socket: net.Socket;
  /** When the server closed it, and everything it answered before that. */
  closed: Promise<{ answer: string; at: number }>;
}

/** Connects and sends `bytes` (maybe nothing). */
export async function rawSocket(url: string, bytes: string): Promise<RawSocket> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let answer = "";
  socket.setEncoding("utf8");
  socket.on("data", (d) => (answer += d));
  socket.on("error", () => {}); // a reset is a close too
  const closed = new Promise<{ answer: string; at: number }>((resolve) => socket.once("close", () => resolve({ answer, at: Date.now() })));
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  if (bytes) socket.write(bytes);
  return { socket, closed };
}

/** The JSON body of a raw HTTP answer. */
export const rawBody = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
