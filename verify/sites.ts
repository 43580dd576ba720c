// A call's site from the frames the preload recorded: the innermost frame inside the project's
// tree (the helper that made the request), with the frames around it (the code that called it).
import path from "node:path";
import type { Frame } from "./preload/protocol.ts";
import type { Site } from "./report-types.ts";

const CHAIN = 4;

export function siteOf(frames: Frame[] | undefined, tree: string): Site | null {
  if (!frames?.length) return null;
  const inTree = frames.filter((f) => isInside(f.file, tree));
  const chosen = inTree.length ? inTree : frames;
  const rel = (f: Frame) => (isInside(f.file, tree) ? path.relative(tree, f.file).split(path.sep).join("/") : f.file);
  const first = chosen[0]!;
  return {
    file: rel(first),
    line: first.line,
    column: first.column,
    ...(first.fn ? { fn: first.fn } : {}),
    chain: chosen.slice(0, CHAIN).map((f) => `${rel(f)}:${f.line}${f.fn ? ` (${f.fn})` : ""}`),
  };
}

/** Whether a site's chain passes through file:line (a codemod finding's position). */
export function passesThrough(frames: Frame[] | undefined, tree: string, file: string, line: number): boolean {
  return !!frames?.some((f) => f.line === line && isInside(f.file, tree) && path.relative(tree, f.file).split(path.sep).join("/") === file);
}

export function formatSite(site: Site | null): string {
  if (!site) return "site unknown (no client frame on the stack: the library called later, after its own awaits)";
  return site.chain.join(" ← ");
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel) && !rel.split(path.sep).includes("node_modules");
}
