// Small text helpers shared by the generator's parts: literals, identifiers, type annotations.

/** Emits TypeScript annotations in a .ts module and nothing in a .js one. */
export type Annotate = (typeScript: string) => string;

export const annotate = (language: "ts" | "js"): Annotate => (language === "ts" ? (s) => s : () => "");

/** A JSON value as source (strings double-quoted, keys quoted only when they must be). */
export function literal(value: unknown): string {
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length ? `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${literal(v)}`).join(", ")} }` : "{}";
  }
  return JSON.stringify(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `.name` or `["name"]`, for reading a member named by the table. */
export function member(name: string): string {
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** `pod-billing-record` → `podBilling`; `network-volume-create` → `networkVolumeCreate`. */
export function camel(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function indent(text: string, by = "  "): string {
  return text
    .split("\n")
    .map((line) => (line ? by + line : line))
    .join("\n");
}
