// A progress bar for long runs, on a terminal only (never in pipes, CI logs or JSON output).
import { createRequire } from "node:module";
import type cliProgressModule from "cli-progress";

// Loaded only when a bar is shown: pipes and CI runs never pay for it.
const load = (): typeof cliProgressModule => createRequire(import.meta.url)("cli-progress");

export function progressReporter(label: string, enabled: boolean): { update: (done: number, total: number) => void; stop: () => void } {
  if (!enabled || !process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  let bar: cliProgressModule.SingleBar | undefined;
  return {
    update(done, total) {
      if (total < 200) return; // short runs finish before a bar helps
      if (!bar) {
        const cliProgress = load();
        bar = new cliProgress.SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total}`, stream: process.stderr, hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic);
        bar.start(total, 0);
      }
      if (done % 50 === 0 || done === total) bar.update(done);
    },
    stop() {
      bar?.stop();
    },
  };
}
