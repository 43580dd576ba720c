// The HTML page as a string: escaping of untrusted input, self-containment, the chart's text.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildReport, burndownSvg, escapeHtml, parseAudit, parseUsage, renderReportHtml, renderReportPage } from "../../report/index.ts";
import { audit, finding, smallTable, usage, usageClient, usageOp } from "./helpers.ts";

const FIX = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const load = (f: string) => JSON.parse(readFileSync(path.join(FIX, f), "utf8"));
const now = new Date("2026-11-10T12:30:00Z");

describe("report HTML", () => {
  const audits = ["audit-2026-10-01.json", "audit-2026-10-20.json", "audit-2026-11-10.json"].map((f) => parseAudit(load(f)));
  const u = parseUsage(load("usage.json"));
  const { html } = renderReportPage({ audits, usage: u, now });

  it("escapes file names, snippets and user agents (untrusted input)", () => {
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain("<script>alert(2)</script>");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>evil-agent</b>");
    expect(html).toContain("src/jobs/&lt;script&gt;alert(1)&lt;/script&gt;.ts:7");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;b&gt;evil-agent&lt;/b&gt;");
    // The href is URL-encoded, not just entity-escaped.
    expect(html).toContain('href="file:///srv/app/src/jobs/%3Cscript%3Ealert(1)%3C/script%3E.ts"');
    expect(escapeHtml(`<a href="x" onclick='y'>&`)).toBe("&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;");
  });

  it("is self-contained: no script, no external stylesheet, font or image; a CSP forbids them", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/@import|@font-face|url\(\s*['"]?https?:/i);
    expect(html).not.toMatch(/<[a-z][^>]*\ssrc=/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`);
    // The only absolute links are call-site links and the SVG namespace.
    const external = [...html.matchAll(/(?:href|xmlns)="(https?:[^"]*)"/g)].map((m) => m[1]);
    expect(external).toEqual(["http://www.w3.org/2000/svg"]);
  });

  it("puts the no-equivalent cases first, with the mapping table's advice", () => {
    const attention = html.indexOf('id="attention"');
    expect(attention).toBeGreaterThan(0);
    expect(attention).toBeLessThan(html.indexOf('id="totals"'));
    expect(html).toContain("pod reset has no v2 equivalent (v2 pod actions are start, stop, restart, terminate)");
    expect(html).toContain("then /start (or v2 POST /v2/pods/{id}/action {&quot;action&quot;:&quot;restart&quot;})");
  });

  it("draws a burn-down with text values and patterns, not colour alone", () => {
    expect(html).toMatch(/<svg class="chart"[^>]*role="img"/);
    const svg = burndownSvg(buildReport(smallTable, audits, null, { now }).burndown);
    expect(svg).toContain(">23</text>");
    expect(svg).toContain(">15</text>");
    expect(svg).toContain(">9</text>");
    expect(svg).toContain('<pattern id="bd-review"');
    expect(svg).toContain('fill="url(#bd-noeq)"');
    expect(svg).toContain("Call sites left in code over 3 audits: 23 on 2026-10-01 09:30, 9 on 2026-11-10 09:30.");
    for (const label of [">auto<", ">review<", ">no equivalent<"]) expect(svg).toContain(label);
  });

  it("a mapping href that fails the links' check is never emitted, even when rendering is called directly", () => {
    const model = buildReport(smallTable, [], null, { now });
    for (const href of ["javascript:alert(1)//", "data:text/html,<script>alert(1)</script>", "//evil.example/x"]) {
      const page = renderReportHtml(model, { mappingDocHref: href });
      expect(page, href).not.toContain(escapeHtml(href));
      expect(page).toContain("mapping table (<code>docs/mapping.md</code>");
    }
    expect(renderReportHtml(model, { mappingDocHref: "https://git.example/m.md" })).toContain('<a href="https://git.example/m.md">mapping table</a>');
  });

  it("with one audit there is no chart, but a hint; with no inputs the page says so", () => {
    const one = renderReportHtml(buildReport(smallTable, [audit("2026-11-10T00:00:00Z", [finding({ operation: "StartPod" })])], null, { now }));
    expect(one).not.toContain("<svg");
    expect(one).toContain("Pass <code>--code</code> once per audit taken over time");
    const empty = renderReportHtml(buildReport(smallTable, [], null, { now }));
    expect(empty).toContain("Code: no audit given");
    expect(empty).toContain("No gateway traffic given");
    expect(empty).toContain('id="all-clear"');
  });

  it("traffic only (the gateway's live page): refresh meta, anonymous client flagged", () => {
    const live = renderReportPage({
      table: smallTable,
      usage: usage([usageOp("ListPods", 2)], [usageClient("anonymous", { ListPods: 2 }, "")]),
      refreshSeconds: 30,
      trafficSource: "this gateway (live)",
      now,
    }).html;
    expect(live).toContain('<meta http-equiv="refresh" content="30">');
    expect(live).toContain("no API key");
    expect(live).toContain("(no user agent)");
    expect(live).toContain("Code: no audit given");
  });
});
