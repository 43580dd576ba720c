// HTML escaping for everything that comes from an input (file names, snippets, user agents,
// reasons): the audit and the traffic are untrusted text.
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** The one check every link in the report goes through: only http(s) and file URLs are links. */
export function isSafeHref(url: string | null | undefined): url is string {
  return !!url && /^(https?|file):\/\//i.test(url);
}

/** An attribute value for href: only http(s) and file URLs survive, everything else becomes "#". */
export function safeHref(url: string | null | undefined): string {
  return isSafeHref(url) ? escapeHtml(url) : "#";
}
