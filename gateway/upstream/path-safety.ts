// Every check that keeps a request under /v2/ on the one configured upstream, in one place: v1
// path parameters before they are put into a v2 path, the v2 paths the gateway builds, and the
// request targets the /v2 pass-through forwards as they are.

/** A path parameter value the gateway will put into an upstream path: no separators, no dot-segments, printable. */
export function isSafeParam(value: string): boolean {
  return value.length > 0 && value.length <= 256 && value !== "." && value !== ".." && !/[\/\\?#%\x00-\x20\x7f-\uffff]/.test(value);
}

/**
 * Every segment of an absolute path decodes, and none decodes to a dot-segment, a separator
 * (`/`, `\\`, so no encoded ones either) or a control character. Shared by the translated calls and
 * the /v2 pass-through, so neither can be steered out of /v2/.
 */
export function segmentsAreSafe(path: string): boolean {
  for (const segment of path.split("/").slice(1)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (decoded === "." || decoded === ".." || /[\\/\x00-\x1f\x7f]/.test(decoded)) return false;
  }
  return true;
}

/** /v2/ + segments of unreserved characters, none a dot-segment: safe without decoding anything (the usual case). */
const PLAIN_V2_PATH = /^\/v2(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~]+)+$/;

/** A path the gateway may send upstream: /v2/ + non-empty, plain-character, safe segments. */
export function isSafeV2Path(path: string): boolean {
  if (PLAIN_V2_PATH.test(path)) return true;
  if (!path.startsWith("/v2/") || path.includes("?") || path.includes("#") || path.includes("\\")) return false;
  if (path.split("/").slice(1).some((segment) => segment === "" || /[^A-Za-z0-9\-._~%!$&'()*+,;=:@]/.test(segment))) return false;
  return segmentsAreSafe(path);
}

/** A /v2 request target that stays under /v2/: no dot-segments, backslashes or encoded separators. */
export function isSafePassthroughUrl(url: string): boolean {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (PLAIN_V2_PATH.test(path)) return true;
  if (!(path === "/v2" || path.startsWith("/v2/"))) return false;
  if (/\\|#/.test(path) || path.includes("//")) return false;
  return segmentsAreSafe(path);
}
