// The gateway and the sandbox validate against the reference documents; without them they would
// be silently lenient, which is worse than not running. So they refuse to start without them
// (one line saying how to get them) unless told `--no-validation`; with `--fetch-reference`
// (what `npm start` passes) missing documents are downloaded first, with one line of progress.
import { referenceCandidates, locateReference, referenceMissingReason, type ReferenceName } from "../openapi/reference.ts";

export type ReferenceCheck = {
  command: string;
  names: readonly ReferenceName[];
  /** An explicit reference directory (flag), if any. */
  dir?: string;
  /** false: `--no-validation` was given. */
  validation: boolean;
  fetch?: boolean;
};

/** "on": the documents are there; "off": run without validation; exits 2 otherwise. */
export async function requireReference(check: ReferenceCheck): Promise<"on" | "off"> {
  if (!check.validation) return "off";
  const missing = check.names.filter((n) => !locateReference(n, check.dir).found);
  if (!missing.length) return "on";
  if (check.fetch) {
    const { fetchReference, ReferenceFetchError } = await import("../openapi/reference-fetch.ts");
    const dir = referenceCandidates(check.dir)[0]!.dir;
    process.stdout.write(`v2-bridge ${check.command}: first start: fetching ${missing.join(", ")} into ${dir} … `);
    try {
      await fetchReference({ dir, names: missing });
      console.log("done");
      return "on";
    } catch (error) {
      if (!(error instanceof ReferenceFetchError)) throw error;
      console.log(`failed: ${error.message}`);
    }
  }
  console.error(`v2-bridge ${check.command}: not starting: ${referenceMissingReason(check.dir, check.names)}; or start with --no-validation to run without schema validation`);
  process.exit(2);
}
