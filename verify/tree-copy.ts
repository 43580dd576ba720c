// A working copy of a project for the "after" run: its files copied, its installed dependencies
// (every node_modules folder) linked rather than copied, its git metadata left out.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from "node:fs";
import path from "node:path";

const SKIPPED = new Set([".git"]);

export function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (SKIPPED.has(entry.name)) continue;
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isDirectory()) {
      if (entry.name === "node_modules") symlinkSync(source, target, "junction");
      else copyTree(source, target);
    } else if (entry.isFile()) copyFileSync(source, target);
  }
}

/** Links every node_modules folder of `from` into the same place in `to` (a tree checked out from git has none). */
export function linkDependencies(from: string, to: string): void {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.name === "node_modules") {
      if (!existsSync(target)) symlinkSync(source, target, "junction");
    } else if (existsSync(target)) linkDependencies(source, target);
  }
}

/**
 * A project that resolves its packages from a folder above it (a hoisted workspace) keeps doing so
 * from its copy: the nearest node_modules above the original is linked into the copy's root.
 */
export function linkHoistedDependencies(from: string, to: string): void {
  if (existsSync(path.join(to, "node_modules"))) return;
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules");
    if (existsSync(candidate)) {
      symlinkSync(candidate, path.join(to, "node_modules"), "junction");
      return;
    }
    if (path.dirname(dir) === dir) return;
  }
}
