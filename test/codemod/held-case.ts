// The two-file project the held-file tests rewrite: a base module and the calls on it.
import { writeFileSync } from "node:fs";
import path from "node:path";

export const HELD_BASE = 'export const API = "https://rest.runpod.io/v1";\n';
export const HELD_PODS = [
  'import { API } from "./base";',
  "export const stopPod = (id: string) => fetch(`${API}/pods/${id}/stop`, { method: \"POST\" });",
  "export const getPod = (id: string) => fetch(`${API}/pods/${id}`);",
  "",
].join("\n");

export function writeHeldCase(dir: string): void {
  writeFileSync(path.join(dir, "base.ts"), HELD_BASE);
  writeFileSync(path.join(dir, "pods.ts"), HELD_PODS);
}
