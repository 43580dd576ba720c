// Bases found by their value: an expression holds a v1 base when one of the strings it can hold
// is a v1 base literal. The literal is where the flip to v2 happens; the other options (an
// environment variable, a caller's argument) are what can override it at run time.
import type { Node } from "../../ts-morph.ts";
import { isBaseOnly } from "../urls.ts";
import { optionsOf, type Value } from "./value.ts";
import { shortExpression } from "../expression-name.ts";

/** The option keys a client is given its base under (`axios.create({ baseURL })`, `ky.create({ prefixUrl })`). */
export const BASE_KEYS = ["baseURL", "baseUrl", "prefixUrl", "prefix", "base", "baseUri", "baseURI"];

export interface FoundBase {
  value: string;
  /** The literal the base comes from. */
  source: Node;
  /** Every v1 base literal the expression can hold (the first is `source`): each must flip for a call on it to move. */
  sources: Node[];
  /** What else the expression can hold at run time, described (`process.env.X`, a parameter). */
  overrides: string[];
}

export function baseIn(v: Value): FoundBase | undefined {
  const options = optionsOf(v);
  const found = options.find((o) => o.kind === "string" && isBaseOnly(o.text)) as (Value & { kind: "string" }) | undefined;
  if (!found) return undefined;
  // Every v1 literal among the options (two callers each giving the v1 base) is a source: a call
  // moves to v2 only when all of them flip. The other options are what can override them.
  const literals = options.filter((o): o is Value & { kind: "string" } => o.kind === "string" && isBaseOnly(o.text));
  const overrides = options.filter((o) => !literals.includes(o as Value & { kind: "string" })).map(describe);
  return { value: found.text, source: found.node, sources: [...new Set(literals.map((o) => o.node))], overrides };
}

function describe(v: Value): string {
  switch (v.kind) {
    case "env":
      return `the environment variable ${v.name}`;
    case "string":
      return JSON.stringify(v.text);
    case "dynamic":
      return shortExpression(v.node);
    default:
      return v.kind;
  }
}
