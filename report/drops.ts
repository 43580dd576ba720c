// "What your clients send that v2 drops": the gateway's per-client drop counts joined with the
// mapping table, and their HTML section. Real clients never read V2-Bridge-Warning, so this list
// is where a dropped field becomes visible.
import { escapeHtml as h } from "./escape.ts";
import type { DropRow, TableOperation, Usage } from "./types.ts";

export function buildDrops(table: readonly TableOperation[], usage: Usage | null): DropRow[] {
  if (!usage?.drops) return [];
  const byKey = new Map(table.map((op) => [op.key, op]));
  return usage.drops.map((d) => ({
    key: d.key,
    v1: byKey.get(d.key)?.v1 ?? null,
    field: d.field,
    count: d.count,
    clients: d.clients,
    clientFingerprints: [...new Set(usage.clients.filter((c) => c.drops?.[d.key]?.[d.field]).map((c) => c.fingerprint))].sort(),
  }));
}

const num = (n: number) => n.toLocaleString("en-US");

export function renderDropsSection(drops: DropRow[], hasTraffic: boolean, mappingRef: string): string {
  const body = !hasTraffic
    ? `<p class="none">No gateway traffic given (<code>--traffic</code>).</p>`
    : drops.length
      ? `<p class="meta">Fields and query parameters clients still send that v2 cannot keep: the gateway forwards the request without them (each is in the ${mappingRef} with the reason and advice). Run the gateway with <code>--strict</code> to refuse them instead. Names starting <code>answer.</code> are v1 record fields v2 cannot supply, left out of answers these clients received.</p>
<div class="scroll"><table id="drops-table">
<thead><tr><th scope="col">v1 operation</th><th scope="col">Dropped input</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Clients</th><th scope="col">Client fingerprints</th></tr></thead>
<tbody>
${drops
  .map(
    (d) =>
      `<tr><td>${h(d.key)}${d.v1 ? ` <code>${h(`${d.v1.method} ${d.v1.path}`)}</code>` : ""}</td><td><code>${h(d.field)}</code></td><td class="num">${num(d.count)}</td><td class="num">${num(
        d.clients,
      )}</td><td class="fp">${d.clientFingerprints.map(h).join("<br>")}</td></tr>`,
  )
  .join("\n")}
</tbody></table></div>`
      : `<p class="ok">✓ No client sent anything v2 drops.</p>`;
  return `<section id="drops" aria-labelledby="h-drops">
<h2 id="h-drops">What your clients send that v2 drops</h2>
${body}
</section>`;
}
