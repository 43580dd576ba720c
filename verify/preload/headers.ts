// Request headers in every shape Node's HTTP clients pass them: a plain object (http, undici),
// a flat [name, value, …] array (undici raw headers), [name, value] pairs, or an iterable of pairs.

type HeaderBag = unknown;

export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const want = name.toLowerCase();
  if (!headers) return undefined;
  if (Array.isArray(headers)) {
    if (headers.length && Array.isArray(headers[0])) {
      for (const [k, v] of headers as [unknown, unknown][]) if (String(k).toLowerCase() === want) return String(v);
      return undefined;
    }
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === want) return String(headers[i + 1]);
    return undefined;
  }
  if (typeof headers === "object") {
    if (typeof (headers as { get?: unknown }).get === "function" && typeof (headers as Headers).has === "function") return (headers as Headers).get(name) ?? undefined;
    if (Symbol.iterator in headers) return headerValue([...(headers as Iterable<[unknown, unknown]>)], name);
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === want && v !== undefined) return Array.isArray(v) ? String(v[0]) : String(v);
  }
  return undefined;
}

/** The same headers with one more (a copy; the caller's object is not touched). */
export function withHeader(headers: HeaderBag, name: string, value: string): unknown {
  if (!headers) return { [name]: value };
  if (Array.isArray(headers)) {
    if (headers.length && Array.isArray(headers[0])) return [...headers, [name, value]];
    return [...headers, name, value];
  }
  if (typeof headers === "object" && Symbol.iterator in headers) return [...(headers as Iterable<[unknown, unknown]>), [name, value]];
  return { ...(headers as Record<string, unknown>), [name]: value };
}
