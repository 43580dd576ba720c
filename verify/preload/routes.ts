// Which requests the preload redirects: those for the API hosts verify names (the v1 and v2 hosts
// of the reference documents' servers), on their default port. Every other host is left alone.

export type Routes = ReadonlyMap<string, URL>;

export function parseRoutes(json: string | undefined): Routes | null {
  if (!json) return null;
  try {
    const raw = JSON.parse(json) as Record<string, string>;
    return new Map(Object.entries(raw).map(([host, origin]) => [host.toLowerCase(), new URL(origin)]));
  } catch {
    return null;
  }
}

/** The local origin for a request to `url`, or null to leave it alone. */
export function targetFor(routes: Routes, url: URL): URL | null {
  const target = routes.get(url.hostname.toLowerCase());
  if (!target) return null;
  const defaultPort = url.protocol === "https:" ? "443" : url.protocol === "http:" ? "80" : null;
  if (defaultPort === null || (url.port !== "" && url.port !== defaultPort)) return null;
  return target;
}
