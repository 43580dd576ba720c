// Two runs make different ids and times for the same records: before comparing, ids become labels
// in the order each run made them (pod#1, template#1…) and times become "<time>". Labels are per
// kind, so one extra volume in a run does not relabel its pods.

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;
/** Fields whose numbers count time (they follow the clock, not the calls). */
const TIME_COUNTS = new Set(["uptime", "uptimeSeconds"]);

export class Normaliser {
  private readonly labels = new Map<string, string>();
  private readonly perKind = new Map<string, number>();
  private pattern: RegExp | null = null;

  /** Gives an id its label (first come, first labelled); ids too short to be unique are left alone. */
  add(id: unknown, kind: string): void {
    if (typeof id !== "string" || id.length < 6 || this.labels.has(id)) return;
    const n = (this.perKind.get(kind) ?? 0) + 1;
    this.perKind.set(kind, n);
    this.labels.set(id, `${kind}#${n}`);
    this.pattern = null;
  }

  text(s: string): string {
    let out = s.replace(ISO_TIME, "<time>");
    if (this.labels.size) {
      this.pattern ??= new RegExp([...this.labels.keys()].sort((a, b) => b.length - a.length).map(escape).join("|"), "g");
      out = out.replace(this.pattern, (id) => this.labels.get(id)!);
    }
    return out;
  }

  value(v: unknown): unknown {
    if (typeof v === "string") return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = TIME_COUNTS.has(k) && typeof x === "number" ? "<duration>" : this.value(x);
      return out;
    }
    return v;
  }
}

/** The kind of record a v2 route is about (labels read "pod#1", "endpoint#2"). */
export function kindOf(route: string): string {
  const m = /^\/v2\/([a-z-]+)/.exec(route);
  const kinds: Record<string, string> = { pods: "pod", serverless: "endpoint", templates: "template", "network-volumes": "volume", registries: "registry", clusters: "cluster" };
  return (m && kinds[m[1]!]) ?? "id";
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
