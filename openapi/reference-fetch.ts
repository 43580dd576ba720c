// `v2-bridge reference fetch`: downloads the published documents into the user's cache, each
// checked against its pinned sha256 before it replaces anything. A download that is slow, too
// large, not found or not the pinned document is an error in one line, and the cache keeps what
// it had. `accept` takes a document whose hash differs (the vendor changed it on purpose).
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../product/atomic-write.ts";
import { referenceCacheDir } from "./cache-dir.ts";
import { documentUrl, FETCH_TIMEOUT_MS, MAX_DOCUMENT_BYTES, PINS, type Pin } from "./reference-pins.ts";
import { REFERENCE_NAMES, type ReferenceName } from "./reference.ts";

export class ReferenceFetchError extends Error {}

export type FetchOptions = {
  /** Mirror base URL (`<base>/<name>`) instead of the pinned URLs. */
  base?: string;
  /** Take a document whose sha256 differs from the pin. */
  accept?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  /** Pins to check against (tests); default the shipped ones. */
  pins?: Record<ReferenceName, Pin>;
};

export type Fetched = { name: ReferenceName; url: string; sha256: string; bytes: number; pinned: boolean };

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** Downloads one document and checks it; throws ReferenceFetchError with a one-line message. */
export async function downloadDocument(name: ReferenceName, options: FetchOptions = {}): Promise<{ data: Buffer } & Fetched> {
  const url = documentUrl(name, options.base);
  const pin = (options.pins ?? PINS)[name];
  const maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES;
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const fail = (why: string): never => {
    throw new ReferenceFetchError(`could not fetch ${name} from ${url}: ${why}`);
  };
  const signal = AbortSignal.timeout(timeoutMs);
  let data: Buffer;
  try {
    const res = await fetch(url, { signal, redirect: "follow" });
    if (!res.ok) {
      await res.body?.cancel();
      fail(`HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get("content-length"));
    if (declared > maxBytes) {
      await res.body?.cancel();
      fail(`${declared} bytes, more than the ${maxBytes} a reference document may have`);
    }
    data = await readCapped(res, maxBytes, () => fail(`more than the ${maxBytes} bytes a reference document may have`));
  } catch (error) {
    if (error instanceof ReferenceFetchError) throw error;
    if (signal.aborted) fail(`no complete answer within ${timeoutMs / 1000} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return fail(cause?.code ?? cause?.message ?? (error as Error).message);
  }
  const got = sha256(data);
  if (got !== pin.sha256 && !options.accept) {
    throw new ReferenceFetchError(
      `${name} from ${url} has sha256 ${got}, but the pinned one is ${pin.sha256}; if the vendor changed it on purpose, take it with \`v2-bridge reference fetch --accept\``,
    );
  }
  if (got !== pin.sha256) checkIsOpenApi(name, url, data);
  return { name, url, sha256: got, bytes: data.length, pinned: got === pin.sha256, data };
}

async function readCapped(res: Response, maxBytes: number, tooLarge: () => never): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** An accepted (unpinned) document must at least be an OpenAPI document, not an HTML error page. */
function checkIsOpenApi(name: ReferenceName, url: string, data: Buffer): void {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(data));
  } catch {
    throw new ReferenceFetchError(`${name} from ${url} is not JSON; not taken`);
  }
  if (typeof (doc as { openapi?: unknown })?.openapi !== "string") throw new ReferenceFetchError(`${name} from ${url} is not an OpenAPI document; not taken`);
}

/**
 * Downloads the documents (all first, then writes them), so a failure leaves the cache as it was.
 * Returns what was written, in `dir` (default the user's cache).
 */
export async function fetchReference(options: FetchOptions & { dir?: string; names?: readonly ReferenceName[] } = {}): Promise<(Fetched & { file: string })[]> {
  const dir = options.dir ?? referenceCacheDir();
  const downloads = await Promise.all((options.names ?? REFERENCE_NAMES).map((name) => downloadDocument(name, options)));
  await mkdir(dir, { recursive: true });
  const written: (Fetched & { file: string })[] = [];
  for (const { data, ...fetched } of downloads) {
    const file = path.join(dir, fetched.name);
    // The very bytes whose hash was checked; owner-only, as the cache has always been written.
    await writeFileAtomic(file, data, { mode: 0o600 });
    written.push({ ...fetched, file });
  }
  return written;
}
