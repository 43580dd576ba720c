// The client's call site: the stack at the moment a request leaves, without Node's own frames,
// the libraries' (node_modules) and the preload's. Positions are source-mapped by Node
// (`--enable-source-maps`, which verify sets) or by the client's loader (tsx).
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Frame } from "./protocol.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MAX_FRAMES = 8;
const FRAME = /^\s*at (?:(?:async )?(.*?) \()?(.+?):(\d+):(\d+)\)?$/;

export function clientFrames(): Frame[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  const frames: Frame[] = [];
  for (const line of stack.split("\n").slice(1)) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const file = toPath(m[2]!);
    if (!file || file.startsWith(HERE) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    frames.push({ file, line: Number(m[3]), column: Number(m[4]), ...(m[1] ? { fn: m[1] } : {}) });
    if (frames.length >= MAX_FRAMES) break;
  }
  return frames;
}

/** A frame's file as a path; null for Node's own code and for code without a file. */
function toPath(location: string): string | null {
  if (location.startsWith("node:") || location.startsWith("internal/") || location === "<anonymous>" || location === "native") return null;
  if (location.startsWith("file://")) {
    try {
      return fileURLToPath(location);
    } catch {
      return null;
    }
  }
  return path.isAbsolute(location) ? location : null;
}
