// HTML escaping for everything that comes from an input (file names, snippets, user agents,
// reasons): the audit and the traffic are untrusted text.
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** An attribute value for href: only http(s) and file URLs survive, everything else becomes "#". */
export function safeHref(url: string | null | undefined): string {
  if (!url || !/^(https?|file):\/\//i.test(url)) return "#";
  return escapeHtml(url);
}
