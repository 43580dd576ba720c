// Headless Chromium (Debian's package) through playwright-core, for the report's browser tests.
// Missing Chromium is not fatal: the suites skip and say why in their title.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.V2_BRIDGE_CHROMIUM ?? "/usr/bin/chromium";
export const chromiumMissing: string | null = existsSync(CHROMIUM) ? null : `Chromium not found at ${CHROMIUM} (run bash .ci/install-browser as root)`;

export function browserSuite(title: string): string {
  return chromiumMissing ? `${title} (skipped: ${chromiumMissing})` : title;
}

export const OUTPUT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../output");

export function outputPath(name: string): string {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return path.join(OUTPUT_DIR, name);
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
