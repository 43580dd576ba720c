// `v2-bridge reference`: where each reference document is read from, with its sha256;
// `v2-bridge reference fetch`: download the published documents into the user's cache.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { referenceCacheDir } from "../openapi/cache-dir.ts";
import { PINS, REFERENCE_URL_ENV } from "../openapi/reference-pins.ts";
import { howToGetReference, locateReference, REFERENCE_DIR_ENV, REFERENCE_NAMES } from "../openapi/reference.ts";

const SOURCE_LABEL = { flag: "--reference-dir", env: REFERENCE_DIR_ENV, cache: "user cache", checkout: "checkout's ../shared/reference" } as const;

/** Prints one line per document; exit code 1 when one is missing. */
export function listReference(dir: string | undefined, out: (line: string) => void): number {
  let missing = 0;
  for (const name of REFERENCE_NAMES) {
    const d = locateReference(name, dir);
    if (!d.found) {
      missing++;
      out(`${name}  not found (expected at ${d.file})`);
      continue;
    }
    const hash = createHash("sha256").update(readFileSync(d.file)).digest("hex");
    const pin = hash === PINS[name].sha256 ? "pinned" : `NOT the pinned ${PINS[name].sha256}`;
    out(`${name}  ${d.file}  (${SOURCE_LABEL[d.source!]})  sha256 ${hash} (${pin})`);
  }
  if (missing) out(`to get them: ${howToGetReference(dir)}`);
  return missing ? 1 : 0;
}

export function registerReferenceCommand(program: Command): void {
  const reference = program
    .command("reference")
    .description("Show where the v1/v2 OpenAPI reference documents are read from, with their sha256 (exit 1 when one is missing)")
    .option("--reference-dir <dir>", `read the documents from this directory only [env ${REFERENCE_DIR_ENV}]`)
    .addHelpText(
      "after",
      `\nLook-up order: --reference-dir or ${REFERENCE_DIR_ENV}; else the user cache (${referenceCacheDir()}); else ../shared/reference beside a checkout.`,
    )
    .action((opts: { referenceDir?: string }) => {
      process.exitCode = listReference(opts.referenceDir, (l) => console.log(l));
    });
  reference
    .command("fetch")
    .description("Download the published documents into the user cache, each checked against its pinned sha256")
    .option("--accept", "take a document whose sha256 differs from the pinned one")
    .addOption(new Option("--from <base-url>", "a mirror holding v1-openapi.json and v2-openapi.json (instead of the vendor's URLs)").env(REFERENCE_URL_ENV))
    .option("--timeout <ms>", "per-document deadline", (v) => positiveInt(v, "--timeout"))
    .action(async (opts: { accept?: boolean; from?: string; timeout?: number }) => {
      const { fetchReference, ReferenceFetchError } = await import("../openapi/reference-fetch.ts");
      const dir = referenceCacheDir();
      process.stdout.write(`fetching ${REFERENCE_NAMES.join(", ")} into ${dir} … `);
      try {
        const written = await fetchReference({ dir, base: opts.from, accept: opts.accept, timeoutMs: opts.timeout });
        console.log("done");
        for (const w of written) console.log(`  ${w.name}  ${w.bytes} bytes  sha256 ${w.sha256}${w.pinned ? " (pinned)" : " (accepted: differs from the pinned one)"}  from ${w.url}`);
      } catch (error) {
        if (!(error instanceof ReferenceFetchError)) throw error;
        console.log("failed");
        console.error(`v2-bridge reference fetch: ${error.message}`);
        process.exitCode = 2;
      }
    });
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`invalid ${flag} '${value}'`);
  return n;
}
