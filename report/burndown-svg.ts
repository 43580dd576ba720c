// The burn-down chart: one stacked bar per audit (oldest left), split by category, as inline SVG
// with no script and no external resource. Readable without colour: each category has its own
// fill pattern (solid, hatched, cross-hatched), a legend with the same swatches, and every bar
// carries its total (and each segment its count when there is room) as text.
import type { BurndownPoint, Category } from "./types.ts";
import { escapeHtml } from "./escape.ts";

export const CATEGORY_LABEL: Record<Category, string> = {
  auto: "auto (codemod rewrites)",
  review: "review (needs a person)",
  "no-equivalent": "no v2 equivalent",
};

// Bottom to top: the hard cases sit on the baseline, so they are the last to vanish.
const STACK: Category[] = ["no-equivalent", "review", "auto"];

const W = 360;
const H = 240;
const M = { top: 44, right: 8, bottom: 44, left: 34 };

function niceMax(max: number): number {
  if (max <= 4) return Math.max(1, max);
  const pow = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const top = Math.ceil(max / (pow * step)) * pow * step;
    if (top / (pow * step) <= 5) return top;
  }
  return max;
}

const fmt = (n: number): string => (Math.round(n * 10) / 10).toString();

export function burndownSvg(points: readonly BurndownPoint[], idPrefix = "bd"): string {
  const p = (name: string) => `${idPrefix}-${name}`;
  const innerW = W - M.left - M.right;
  const innerH = H - M.top - M.bottom;
  const maxTotal = niceMax(Math.max(0, ...points.map((pt) => pt.total)));
  const y = (v: number) => M.top + innerH - (v / maxTotal) * innerH;
  const step = innerW / Math.max(1, points.length);
  const barW = Math.min(48, step * 0.62);
  const labelEvery = Math.max(1, Math.ceil(points.length / 6));

  const first = points[0];
  const last = points.at(-1);
  const summary =
    first && last
      ? `Call sites left in code over ${points.length} audits: ${first.total} on ${first.label}, ${last.total} on ${last.label}.`
      : "No audits.";

  const defs = `<defs>
<pattern id="${p("review")}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="c-review-bg"/><line x1="0" y1="0" x2="0" y2="6" class="c-review-line" stroke-width="3"/></pattern>
<pattern id="${p("noeq")}" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" class="c-noeq-bg"/><path d="M0,0 L6,6 M6,0 L0,6" class="c-noeq-line" stroke-width="1.4"/></pattern>
</defs>`;
  const fillOf: Record<Category, string> = {
    auto: `class="c-auto"`,
    review: `fill="url(#${p("review")})"`,
    "no-equivalent": `fill="url(#${p("noeq")})"`,
  };

  const legend = STACK.slice()
    .reverse()
    .map((c, i) => {
      const x = M.left - 26 + i * 104;
      return `<g><rect x="${x}" y="8" width="14" height="14" ${fillOf[c]} stroke="#222" stroke-width="0.8"/><text x="${x + 19}" y="20" class="lg">${escapeHtml(
        c === "auto" ? "auto" : c === "review" ? "review" : "no equivalent",
      )}</text></g>`;
    })
    .join("");

  const ticks = [0, maxTotal / 2, maxTotal]
    .filter((v, i, all) => all.indexOf(v) === i)
    .map(
      (v) =>
        `<line x1="${M.left}" x2="${W - M.right}" y1="${fmt(y(v))}" y2="${fmt(y(v))}" class="grid"/><text x="${M.left - 6}" y="${fmt(
          y(v) + 4,
        )}" text-anchor="end" class="ax">${fmt(v)}</text>`,
    )
    .join("");

  const bars = points
    .map((pt, i) => {
      const cx = M.left + step * i + step / 2;
      const x = cx - barW / 2;
      let base = 0;
      const segs = STACK.map((c) => {
        const v = pt.byCategory[c];
        if (v <= 0) return "";
        const y0 = y(base + v);
        const h = y(base) - y0;
        base += v;
        const inner =
          h >= 15 && barW >= 18
            ? `<text x="${fmt(cx)}" y="${fmt(y0 + h / 2 + 4)}" text-anchor="middle" class="seg">${v}</text>`
            : "";
        return `<rect x="${fmt(x)}" y="${fmt(y0)}" width="${fmt(barW)}" height="${fmt(h)}" ${fillOf[c]} stroke="#222" stroke-width="0.8"><title>${escapeHtml(
          `${pt.label}: ${v} ${CATEGORY_LABEL[c]}`,
        )}</title></rect>${inner}`;
      }).join("");
      const [day, time] = pt.label.split(" ");
      const showLabel = i % labelEvery === 0 || i === points.length - 1;
      const xLabel = showLabel
        ? `<text x="${fmt(cx)}" y="${H - M.bottom + 17}" text-anchor="middle" class="ax">${escapeHtml(day ?? pt.label)}</text>${
            time ? `<text x="${fmt(cx)}" y="${H - M.bottom + 32}" text-anchor="middle" class="ax">${escapeHtml(time)}</text>` : ""
          }`
        : "";
      return `<g class="bar" data-total="${pt.total}">${segs}<text x="${fmt(cx)}" y="${fmt(y(pt.total) - 6)}" text-anchor="middle" class="tot">${pt.total}</text>${xLabel}</g>`;
    })
    .join("");

  const line =
    points.length > 1
      ? `<polyline class="trend" fill="none" points="${points
          .map((pt, i) => `${fmt(M.left + step * i + step / 2)},${fmt(y(pt.total))}`)
          .join(" ")}"/>`
      : "";

  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${p("t")} ${p("d")}" xmlns="http://www.w3.org/2000/svg">
<title id="${p("t")}">Burn-down of v1 call sites in code</title>
<desc id="${p("d")}">${escapeHtml(summary)}</desc>
${defs}${legend}${ticks}<line x1="${M.left}" x2="${W - M.right}" y1="${fmt(y(0))}" y2="${fmt(y(0))}" class="axis"/>${line}${bars}
</svg>`;
}
