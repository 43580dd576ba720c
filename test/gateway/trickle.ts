// A client that sends its request slowly, line by line: for the listeners' header and request timeouts.
import net from "node:net";

/**
 * Sends `head` then one `trickle` line every 100 ms (at most `maxLines`); resolves when the server
 * closes the connection, with what it answered and how many lines got through.
 */
export function trickle(url: string, head: string, line: (i: number) => string, maxLines: number): Promise<{ linesSent: number; answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const started = Date.now();
    const socket = net.connect(Number(port), hostname);
    let linesSent = 0;
    let answer = "";
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {}); // a reset is also a cut
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ linesSent, answer, ms: Date.now() - started });
    });
    socket.on("connect", () => {
      socket.write(head);
      timer = setInterval(() => {
        if (linesSent >= maxLines) {
          clearInterval(timer);
          socket.destroy();
          return reject(new Error(`not cut after ${maxLines} lines (${Date.now() - started} ms)`));
        }
        if (!socket.destroyed) socket.write(line(linesSent++));
      }, 100);
    });
  });
}
