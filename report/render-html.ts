// The report page: model → one self-contained HTML string. Pure. No script, no external
// resource (a Content-Security-Policy meta forbids them), inline CSS and inline SVG only, so the
// file opens offline and from the gateway alike. Every input-derived string goes through
// escapeHtml; links through safeHref.
import { renderDropsSection } from "./drops.ts";
import { burndownSvg, CATEGORY_LABEL } from "./burndown-svg.ts";
import { escapeHtml as h, isSafeHref, safeHref } from "./escape.ts";
import type { AttentionItem, CallSite, Category, OperationRow, ReportModel, Route } from "./types.ts";
import { CATEGORIES } from "./types.ts";
import { UNIDENTIFIED } from "./join.ts";

export interface RenderOptions {
  /** Page title. */
  title?: string;
  /** Adds `<meta http-equiv="refresh">` (the gateway's live page). */
  refreshSeconds?: number;
  /** Link to the mapping table (docs/mapping.md as published somewhere); without it the page names the file. */
  mappingDocHref?: string;
  /** Call sites listed per operation before the rest fold away. */
  maxSitesShown?: number;
}

const num = (n: number): string => n.toLocaleString("en-US");

function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return h(iso);
  const full = d.toISOString();
  return `<time datetime="${h(full)}" title="${h(full)}">${h(full.slice(0, 16).replace("T", " "))} UTC</time>`;
}

const route = (r: Route | null): string => (r ? `<code class="route">${h(r.method)} ${h(r.path)}</code>` : "");

const BADGE: Record<Category, string> = { auto: "auto", review: "review", "no-equivalent": "no equivalent" };
const MARK: Record<Category, string> = { auto: "✓", review: "!", "no-equivalent": "✕" };

function badge(c: Category): string {
  return `<span class="badge b-${c}" title="${h(CATEGORY_LABEL[c])}"><span aria-hidden="true">${MARK[c]}</span> ${BADGE[c]}</span>`;
}

function siteItem(site: CallSite): string {
  const loc = `${site.file}:${site.line}`;
  const link = site.href ? `<a href="${safeHref(site.href)}">${h(loc)}</a>` : `<span class="loc">${h(loc)}</span>`;
  const snippet = site.snippet ? `<code class="snippet">${h(site.snippet.length > 200 ? site.snippet.slice(0, 199) + "…" : site.snippet)}</code>` : "";
  const why = site.reason ? `<span class="why">${h(site.reason)}</span>` : "";
  return `<li class="site" data-category="${h(site.category)}">${badge(site.category)} ${link}${why ? " " + why : ""}${snippet}</li>`;
}

function siteList(sites: CallSite[], max: number): string {
  if (!sites.length) return `<span class="none">none</span>`;
  const shown = sites.slice(0, max).map(siteItem).join("");
  const rest = sites.slice(max);
  const more = rest.length
    ? `<details class="more"><summary>${num(rest.length)} more call site${rest.length === 1 ? "" : "s"}</summary><ul class="sites">${rest.map(siteItem).join("")}</ul></details>`
    : "";
  return `<ul class="sites">${shown}</ul>${more}`;
}

function statusCell(row: OperationRow): string {
  if (row.key === UNIDENTIFIED) return `<span class="badge b-unknown">? not one operation</span>`;
  if (row.status === "unknown") return `<span class="badge b-unknown">? not in mapping table</span>`;
  if (row.status === "no-equivalent") return `<span class="badge b-no-equivalent"><span aria-hidden="true">✕</span> no v2 equivalent</span>`;
  const v2 = row.v2 ? route(row.v2) : "";
  return `${v2}${v2 ? "<br>" : ""}<span class="status">${h(row.status)}</span>`;
}

function attentionItem(item: AttentionItem, max: number, hasCode: boolean, hasTraffic: boolean): string {
  const used = item.codeSites + item.liveCalls > 0;
  const code = hasCode ? `<strong>${num(item.codeSites)}</strong> call site${item.codeSites === 1 ? "" : "s"} in code` : "code not audited";
  const live = hasTraffic
    ? `<strong>${num(item.liveCalls)}</strong> live call${item.liveCalls === 1 ? "" : "s"} from <strong>${num(item.liveClients)}</strong> client${item.liveClients === 1 ? "" : "s"}`
    : "no traffic given";
  const counts = `<p class="counts">${code} · ${live}${used ? "" : ` · <span class="ok">✓ none left</span>`}</p>`;
  return `<article class="attn${used ? "" : " clear"}" data-key="${h(item.key)}">
<h3><span aria-hidden="true">${used ? "⚠" : "✓"}</span> ${h(item.key)} ${route(item.v1)}</h3>
<p class="msg">${h(item.message)}</p>
${item.advice ? `<p class="advice"><strong>What to do:</strong> ${h(item.advice)}</p>` : ""}
${counts}
${item.sites.length ? siteList(item.sites, max) : ""}
</article>`;
}

function operationRow(row: OperationRow, max: number, hasCode: boolean, hasTraffic: boolean): string {
  const t = row.traffic;
  const clients = Math.max(t?.clients ?? 0, row.listedClients);
  const statuses = t
    ? Object.entries(t.statuses)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, n]) => `${h(s)}×${num(n)}`)
        .join(" ")
    : "";
  const cls = [row.status === "no-equivalent" ? "noeq" : "", row.known ? "" : "unknown"].filter(Boolean).join(" ");
  return `<tr data-key="${h(row.key)}"${cls ? ` class="${cls}"` : ""}>
<th scope="row"><span class="key">${h(row.key)}</span>${row.v1 ? `<br>${route(row.v1)}` : ""}${row.known || row.key === UNIDENTIFIED ? `<br><span class="opsum">${h(row.summary)}</span>` : ""}${row.known || row.key === UNIDENTIFIED ? "" : `<br><span class="flag">not in mapping table</span>`}</th>
<td>${statusCell(row)}</td>
${CATEGORIES.map((c) => `<td class="num" data-col="${c}">${hasCode ? num(row.code[c]) : "—"}</td>`).join("")}
<td class="sites-cell">${hasCode ? siteList(row.sites, max) : `<span class="none">no audit given</span>`}</td>
<td class="num" data-col="calls">${t ? num(t.count) : hasTraffic ? "0" : "—"}${statuses ? `<br><span class="statuses" title="HTTP statuses answered">${statuses}</span>` : ""}</td>
<td class="num" data-col="clients">${hasTraffic ? num(clients) : "—"}</td>
<td data-col="last-seen">${t ? when(t.lastSeen) : "—"}</td>
</tr>`;
}

const CSS = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--warn:#9a3412;--warnbg:#fff7ed;--ok:#166534}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1360px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;margin:.2em 0}
h2{font-size:1.25rem;margin:1.6em 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 .3em}
.meta{color:var(--muted);margin:.2em 0;font-size:.92rem}
code{font:.88em/1.35 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.route{white-space:nowrap;background:var(--soft);padding:0 .25em;border-radius:3px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:10px;margin:12px 0}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 12px;background:var(--soft)}
.card .label{font-size:.85rem;color:var(--muted)}
.card .value{font-size:1.9rem;font-weight:700;line-height:1.2}
.card .sub{font-size:.85rem}
.progress{border:1px solid var(--fg);height:14px;border-radius:7px;overflow:hidden;background:repeating-linear-gradient(45deg,#fff 0 4px,#e5e7eb 4px 8px)}
.progress>div{height:100%;background:var(--ok)}
.attn{border:2px solid var(--warn);background:var(--warnbg);border-radius:8px;padding:10px 12px;margin:10px 0}
.attn.clear{border:1px dashed var(--line);background:var(--soft)}
.attn .msg{margin:.2em 0}
.attn .advice{margin:.3em 0}
.counts{margin:.3em 0}
.ok{color:var(--ok);font-weight:600}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;border:1px solid var(--line);border-radius:6px;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{padding:6px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--soft);white-space:nowrap;font-size:.85rem;vertical-align:bottom}
thead th.group{text-align:center;border-bottom:1px solid var(--line);vertical-align:top}
td[data-col="last-seen"]{min-width:6.5rem}
td[data-col="last-seen"] time{white-space:normal}
time{white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.noeq>th{border-left:4px solid var(--warn)}
.key{font-weight:600}
.opsum{display:inline-block;font-weight:400;color:var(--muted);font-size:.82rem;max-width:16rem}
.flag{font-size:.8rem;color:var(--warn);font-weight:600}
.status{color:var(--muted);font-size:.85rem}
.statuses{color:var(--muted);font-size:.78rem}
.sites-cell{min-width:16rem}
td .route{white-space:normal;overflow-wrap:anywhere}
ul.sites{list-style:none;margin:0;padding:0}
li.site{margin:0 0 6px;word-break:break-word}
.snippet{display:block;white-space:pre-wrap;word-break:break-all;background:var(--soft);border-left:3px solid var(--line);padding:2px 6px;margin-top:2px}
.why{color:var(--muted);font-size:.85rem}
.badge{display:inline-block;font-size:.75rem;font-weight:600;border:1px solid currentColor;border-radius:10px;padding:0 .45em;white-space:nowrap}
.b-auto{color:#1d4ed8}.b-review{color:#a16207}.b-no-equivalent{color:var(--warn)}.b-unknown{color:#6b21a8}
.none{color:var(--muted)}
.ops-used{list-style:none;margin:0;padding:0}
.ops-used li{white-space:nowrap}
.fp{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:nowrap}
.ua{word-break:break-word;min-width:10rem}
.chart-wrap{max-width:560px}
svg.chart{width:100%;height:auto;display:block}
svg .grid{stroke:#e5e7eb}
svg .axis{stroke:#222}
svg .ax{font-size:12px;fill:#333}
svg .lg{font-size:13px;fill:#222}
svg .seg{font-size:12px;fill:#000;font-weight:600;paint-order:stroke;stroke:#fff;stroke-width:3px}
svg .tot{font-size:13px;font-weight:700;fill:#000}
svg .trend{stroke:#444;stroke-width:1.5;stroke-dasharray:4 3}
svg .c-auto{fill:#93c5fd}
svg .c-review-bg{fill:#fde68a}
svg .c-review-line{stroke:#a16207}
svg .c-noeq-bg{fill:#fecaca}
svg .c-noeq-line{stroke:#7f1d1d}
details>summary{cursor:pointer}
.notes li{margin:.2em 0}
.scroll-hint{display:none;font-size:.8rem;color:var(--muted);margin:.2em 0}
footer{margin-top:2em;color:var(--muted);font-size:.85rem}
@media (max-width:700px){.scroll-hint{display:block}}
@media (max-width:600px){main{padding:10px}h1{font-size:1.3rem}.card .value{font-size:1.5rem}table{font-size:.86rem}}
`;

export function renderReportHtml(model: ReportModel, options: RenderOptions = {}): string {
  const title = options.title ?? "v1 → v2 migration report";
  const max = options.maxSitesShown ?? 5;
  // Never emitted unless it passes the links' check (generateReport refuses such an href outright).
  const mappingRef = isSafeHref(options.mappingDocHref)
    ? `<a href="${safeHref(options.mappingDocHref)}">mapping table</a>`
    : `mapping table (<code>docs/mapping.md</code>, or <code>v2-bridge mappings</code>)`;
  const hasCode = Boolean(model.code.latest);
  const noUsage =
    hasCode && model.traffic ? "no call sites and no live calls" : hasCode ? "no call sites" : model.traffic ? "no live calls" : "no usage in the inputs";
  const t = model.totals;
  const done = t.tableOperations - t.operationsInUse;
  const pct = t.tableOperations ? Math.round((done / t.tableOperations) * 100) : 100;

  const latest = model.code.latest;
  const codeMeta = latest
    ? `Code: audit of <code>${h(latest.root)}</code> taken ${when(latest.generatedAt)} (${num(latest.files)} files scanned${
        model.code.audits.length > 1 ? `; ${num(model.code.audits.length)} audits in the burn-down` : ""
      })`
    : "Code: no audit given";
  const trafficMeta = model.traffic
    ? `Traffic: gateway usage${model.traffic.source ? ` from <code>${h(model.traffic.source)}</code>` : ""} since ${when(model.traffic.since)}, as of ${when(
        model.traffic.generatedAt,
      )}`
    : "Traffic: none given";

  const cards = `<div class="cards">
<div class="card" id="card-code"><div class="label">v1 call sites left in code</div><div class="value">${latest ? num(t.codeSites) : "—"}</div><div class="sub">${
    latest ? CATEGORIES.map((c) => `${BADGE[c]} <strong>${num(t.byCategory[c])}</strong>`).join(" · ") : "no audit given"
  }</div></div>
<div class="card" id="card-calls"><div class="label">Live v1 requests</div><div class="value">${model.traffic ? num(t.liveRequests) : "—"}</div><div class="sub">${
    model.traffic ? `since ${when(model.traffic.since)}` : "no traffic given"
  }</div></div>
<div class="card" id="card-clients"><div class="label">Clients still on v1</div><div class="value">${model.traffic ? num(t.liveClients) : "—"}</div><div class="sub">${
    model.traffic ? `${num(model.clients.length)} listed below${t.evictedClients ? ` · ${num(t.evictedClients)} no longer tracked` : ""}` : "no traffic given"
  }</div></div>
<div class="card" id="card-ops"><div class="label">v1 operations still in use</div><div class="value">${num(t.operationsInUse)} <span class="sub">of ${num(
    t.tableOperations,
  )}</span></div><div class="sub">in code <strong>${num(t.operationsInCode)}</strong> · in traffic <strong>${num(t.operationsInTraffic)}</strong></div></div>
</div>
<p id="progress-text"><strong>${num(done)} of ${num(t.tableOperations)}</strong> v1 operations (${pct}%) have ${noUsage}${latest && !model.traffic ? " (no traffic given)" : !latest && model.traffic ? " (no audit given)" : ""} left.</p>
<div class="progress" role="img" aria-label="${pct}% of v1 operations at zero"><div style="width:${pct}%"></div></div>`;

  const attention = model.attention.length
    ? model.attention.map((a) => attentionItem(a, max, hasCode, Boolean(model.traffic))).join("\n")
    : `<p class="none">No v1 operation or call site without a v2 equivalent.</p>`;

  const burndown =
    model.burndown.length >= 2
      ? `<div class="chart-wrap">${burndownSvg(model.burndown)}</div>
<details><summary>Burn-down as a table</summary><div class="scroll"><table id="burndown-table"><thead><tr><th>Audit taken</th><th class="num">Total</th>${CATEGORIES.map(
          (c) => `<th class="num">${BADGE[c]}</th>`,
        ).join("")}</tr></thead><tbody>${model.burndown
          .map(
            (p) =>
              `<tr><td>${when(p.generatedAt)}</td><td class="num">${num(p.total)}</td>${CATEGORIES.map((c) => `<td class="num">${num(p.byCategory[c])}</td>`).join(
                "",
              )}</tr>`,
          )
          .join("")}</tbody></table></div></details>`
      : `<p class="none">${
          model.burndown.length === 1 ? "One audit given." : "No audit given."
        } Pass <code>--code</code> once per audit taken over time to draw the burn-down.</p>`;

  const opsTable = model.operations.length
    ? `<p class="scroll-hint" aria-hidden="true">Table wider than the screen: swipe sideways ⇆</p><div class="scroll"><table id="operations-table">
<thead>
<tr><th scope="col" rowspan="2">v1 operation</th><th scope="col" rowspan="2">v2 / status</th><th scope="colgroup" colspan="4" class="group">Call sites left in code</th><th scope="colgroup" colspan="3" class="group">Live calls through the gateway</th></tr>
<tr><th scope="col" class="num">auto</th><th scope="col" class="num">review</th><th scope="col" class="num">no equiv.</th><th scope="col">file:line</th><th scope="col" class="num">calls</th><th scope="col" class="num">clients</th><th scope="col">last seen</th></tr>
</thead>
<tbody>
${model.operations.map((r) => operationRow(r, max, hasCode, Boolean(model.traffic))).join("\n")}
</tbody></table></div>`
    : `<p class="ok" id="all-clear">✓ No v1 usage left in the inputs given.</p>`;

  const clear = model.clearOperations.length
    ? `<details id="clear-operations"><summary>${num(model.clearOperations.length)} v1 operation${
        model.clearOperations.length === 1 ? "" : "s"
      } with ${noUsage}</summary><ul>${model.clearOperations
        .map((o) => `<li><span class="ok" aria-hidden="true">✓</span> ${h(o.key)} ${route(o.v1)}</li>`)
        .join("")}</ul></details>`
    : "";

  const clients = !model.traffic
    ? `<p class="none">No gateway traffic given (<code>--traffic</code>).</p>`
    : model.clients.length
      ? `<p class="scroll-hint" aria-hidden="true">Table wider than the screen: swipe sideways ⇆</p><div class="scroll"><table id="clients-table">
<thead><tr><th scope="col">Client fingerprint</th><th scope="col">User agent</th><th scope="col" class="num">Requests</th><th scope="col">Last seen</th><th scope="col">v1 operations it still calls</th></tr></thead>
<tbody>
${model.clients
  .map(
    (c) => `<tr data-fingerprint="${h(c.fingerprint)}"><th scope="row" class="fp">${h(c.fingerprint)}${c.anonymous ? `<br><span class="flag">no API key</span>` : ""}</th><td class="ua">${
      c.userAgent ? h(c.userAgent) : `<span class="none">(no user agent)</span>`
    }</td><td class="num">${num(c.count)}</td><td>${when(c.lastSeen)}</td><td><ul class="ops-used">${c.operations
      .map(
        (o) =>
          `<li>${o.noEquivalent ? `<span class="badge b-no-equivalent"><span aria-hidden="true">✕</span> no equivalent</span> ` : ""}${h(o.key)}${
            o.known ? "" : ` <span class="flag">(not in mapping table)</span>`
          } ×${num(o.count)} <span class="status">last ${when(o.lastSeen)}</span></li>`,
      )
      .join("")}</ul></td></tr>`,
  )
  .join("\n")}
</tbody></table></div>`
      : `<p class="ok">✓ No client has called v1 through the gateway since ${when(model.traffic.since)}.</p>`;

  const notes = model.notes.length
    ? `<section id="notes" aria-labelledby="h-notes"><h2 id="h-notes">Notes</h2><ul class="notes">${model.notes.map((n) => `<li>${h(n)}</li>`).join("")}</ul></section>`
    : "";

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
${options.refreshSeconds ? `<meta http-equiv="refresh" content="${Math.max(1, Math.floor(options.refreshSeconds))}">\n` : ""}<meta name="generator" content="v2-bridge report">
<title>${h(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header>
<h1>${h(title)}</h1>
<p class="meta">Generated ${when(model.generatedAt)}</p>
<p class="meta">${codeMeta}</p>
<p class="meta">${trafficMeta}</p>
</header>
<section id="attention" aria-labelledby="h-attention">
<h2 id="h-attention">Needs a decision: no v2 equivalent</h2>
${attention}
</section>
<section id="totals" aria-labelledby="h-totals">
<h2 id="h-totals">Where the migration stands</h2>
${cards}
</section>
<section id="burndown" aria-labelledby="h-burndown">
<h2 id="h-burndown">Burn-down of call sites in code</h2>
${burndown}
</section>
<section id="operations" aria-labelledby="h-operations">
<h2 id="h-operations">v1 operations still in use</h2>
<p class="meta">Per v1 operation: the call sites left in code by category, and the live calls the gateway saw. Each operation's v2 form is in the ${mappingRef}.${
    hasCode ? "" : " No audit was given, so the code columns are empty."
  }</p>
${opsTable}
${clear}
</section>
<section id="clients" aria-labelledby="h-clients">
<h2 id="h-clients">Clients still calling v1</h2>
${clients}
</section>
${renderDropsSection(model.drops, Boolean(model.traffic), mappingRef)}
${notes}
<footer>v2-bridge report · categories: <strong>auto</strong> = the codemod rewrites it (<code>v2-bridge rewrite --write</code>); <strong>review</strong> = rewritten with a TODO a person must check; <strong>no equivalent</strong> = v2 has no such thing, decide what to do.</footer>
</main>
</body>
</html>
`;
}
