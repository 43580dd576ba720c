// SWR's cache keys: `mutate(key, …)`, `useSWRConfig().mutate`, `useSWRMutation(key, …)`,
// `cache.get(key)` send nothing; they name the cache entry of the hook with the same key
// (`useSWR(key, fetcher)`). So they are never call sites, and their key must stay equal to the
// hook's: where the hook's key is rewritten (a v2 path, a kept call's `RUNPOD_V1_BASE`), the
// cache key's same text is rewritten the same way, once do no harm has settled which edits land.
// What a cache call writes into the entry (`mutate(key, updater)`, data) must keep the shape the
// hook's `data` holds: the list stays an array (the fetcher unwraps it), but records whose fields
// differ in v2 are not checked inside an updater, so such a write keeps the hook on v1, marked.
import { Node, SyntaxKind, type CallExpression } from "../ts-morph.ts";
import type { Analysis, Plan } from "./state.ts";
import { addEdit } from "./state.ts";
import type { HttpCall } from "./transports/transport.ts";
import { swrCacheKey } from "./transports/swr.ts";
import { resolveParts, unwrapExpression, type Part } from "./urls.ts";
import { bind, urlContext } from "./values.ts";
import { replaceNode } from "./text-edit.ts";
import { isFunctionLike } from "./scope.ts";
import type { Edit } from "../types.ts";

interface CacheCall {
  call: CallExpression;
  key: Node;
  write?: Node;
}

const calls = new WeakMap<Analysis, CacheCall[]>();

/** Every SWR cache call of the run's files (read once). */
export function cacheCalls(a: Analysis): CacheCall[] {
  let out = calls.get(a);
  if (out) return out;
  out = [];
  for (const file of a.files.values()) {
    for (const call of file.sf.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const found = swrCacheKey(a, call);
      if (found) out.push({ call, ...found });
    }
  }
  calls.set(a, out);
  return out;
}

const NO_KEY = new Set(["null", "undefined", "false"]);

/** The URL forms a key can hold (a conditional's branches, `cond && key`; null means no request), each with its parts. */
export function keyForms(a: Analysis, node: Node, depth = 0): { form: string; parts: Part[] }[] {
  const n = unwrapExpression(node);
  // (A filter, `mutate((key) => …)`, matches keys at run time: it names no one key.)
  if (NO_KEY.has(n.getText()) || depth > 4 || isFunctionLike(n)) return [];
  if (Node.isConditionalExpression(n)) return [...keyForms(a, n.getWhenTrue(), depth + 1), ...keyForms(a, n.getWhenFalse(), depth + 1)];
  if (Node.isBinaryExpression(n) && n.getOperatorToken().getText() === "&&") return keyForms(a, n.getRight(), depth + 1);
  if (Node.isIdentifier(n)) {
    const b = bind(a, n);
    if (b?.kind === "var" && b.isConst && b.init && b.path.length === 0) return keyForms(a, b.init, depth + 1);
  }
  const parts = resolveParts(n, urlContext(a));
  const form = parts.map((p) => (p.kind === "text" ? p.text : p.kind === "base" ? `\u0001${p.value}\u0001` : "\u0000")).join("");
  return [{ form, parts }];
}

/**
 * The cache calls naming this hook's key: their key parts are followed uses (they move with the
 * hook's key, after do no harm), and what they write into the entry is checked against the answer.
 */
export function hookCacheKeys(plan: Plan, http: HttpCall, differing: string[]): void {
  const a = plan.a;
  const key = http.hook?.key;
  if (!key) return;
  const forms = keyForms(a, key);
  for (const cache of cacheCalls(a)) {
    for (const c of keyForms(a, cache.key)) {
      const h = forms.find((f) => f.form === c.form && f.parts.length === c.parts.length && f.parts.every((p, i) => p.kind === c.parts[i]!.kind));
      if (!h) continue;
      for (const p of c.parts) a.accounted.add(p.node);
      (a.cacheKeys ??= []).push({ cache: c.parts.map((p) => p.node), hook: h.parts.map((p) => p.node) });
      const problem = cache.write && writeProblem(cache.write, differing);
      if (problem) {
        const where = `${cache.call.getSourceFile().getBaseName()}:${cache.call.getStartLineNumber()}`;
        plan.problems.push({
          reason: `${cache.call.getExpression().getText()}(…) at ${where} writes into this hook's cached data (${problem}), ${differing.length ? `and these v1 record fields differ in v2: ${differing.join(", ")}` : "which the codemod does not check against the v2 answer"}`,
          advice: "write the cached value in the v2 record's shape where the hook's data is migrated (docs/mapping.md)",
          brief: `the cache write at ${where} is in the v1 record's shape`,
        });
      }
    }
  }
}

/** Why a write into the cached value may not keep the record's shape (undefined when it only filters or reads fields that stay). */
function writeProblem(write: Node, differing: string[]): string | undefined {
  const w = unwrapExpression(write);
  if (w.getText() === "undefined") return undefined;
  if (!isFunctionLike(w)) return `${w.getText().slice(0, 30)} given as the data`;
  const fields = new Set(differing.map((d) => d.split("→")[0]!.split("+")).flat().map((f) => f.split(".")[0]!));
  const read = w.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).map((p) => p.getName()).find((n) => fields.has(n));
  if (read) return `its updater reads ${read}`;
  // An updater that adds records (a spread, a literal) writes records the codemod cannot see the shape of.
  const adds = w.getDescendants().find((d) => Node.isSpreadElement(d) || Node.isObjectLiteralExpression(d) || Node.isArrayLiteralExpression(d));
  return adds ? `its updater adds ${adds.getText().slice(0, 30)}` : undefined;
}

/** After do no harm: each cache key is rewritten the way the edits that landed rewrote its hook's key. */
export function followCacheKeys(a: Analysis): void {
  const done = new Set<string>();
  for (const { cache, hook } of a.cacheKeys ?? []) {
    cache.forEach((c, i) => {
      const h = hook[i]!;
      if (c === h || c.getText() !== h.getText()) return;
      const now = rewritten(a, h);
      const id = `${c.getSourceFile().getFilePath()}:${c.getStart()}`;
      if (now === undefined || now === h.getText() || done.has(id)) return;
      done.add(id);
      addEdit(a, replaceNode(c, now));
    });
  }
}

/** The text of `node` once the edits that landed inside it are applied (undefined when one only overlaps it). */
function rewritten(a: Analysis, node: Node): string | undefined {
  const file = a.files.get(node.getSourceFile().getFilePath());
  if (!file) return undefined;
  const start = node.getStart();
  const end = node.getEnd();
  const inside: Edit[] = [];
  for (const e of file.edits) {
    if (e.end <= start || e.start >= end) continue;
    if (e.start < start || e.end > end) return undefined;
    inside.push(e);
  }
  let text = node.getText();
  for (const e of [...inside].sort((x, y) => y.start - x.start)) text = text.slice(0, e.start - start) + e.text + text.slice(e.end - start);
  return text;
}
