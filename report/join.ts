// The join: mapping table + static audits + gateway usage → one report model. Pure (no I/O,
// no clock unless `now` is omitted), so every edge case is a unit test.
//
// - The newest audit (by generatedAt) is the current state of the code; all audits feed the burn-down.
// - Operation keys are the mapping table's keys. A key neither the audit nor the gateway should
//   produce (not in the table) still gets a row, flagged, so nothing is silently dropped.
// - Call sites whose operation the audit could not tell are matched to the table by their v1
//   method + path when given, else grouped under "(unidentified)".
import { isSafeHref } from "./escape.ts";
import { buildDrops } from "./drops.ts";
import type {
  Audit,
  AuditFinding,
  AttentionItem,
  BurndownPoint,
  CallSite,
  Category,
  ClientRow,
  OperationRow,
  ReportModel,
  TableOperation,
  Usage,
} from "./types.ts";
import { CATEGORIES } from "./types.ts";

export const UNIDENTIFIED = "(unidentified)";
/** The gateway's fingerprint for requests that carry no API key. */
export const ANONYMOUS = "anonymous";

export interface JoinOptions {
  /** Link call sites to `<linkBase><file>#L<line>` (e.g. a repository browser) instead of file://. */
  linkBase?: string;
  /** Where the traffic came from (URL or file), shown on the page. */
  trafficSource?: string;
  /** The report's own timestamp (default: now). */
  now?: Date;
}

const zeroCategories = (): Record<Category, number> => ({ auto: 0, review: 0, "no-equivalent": 0 });

function encodePath(file: string): string {
  return file
    .replace(/\\/g, "/")
    .split("/")
    .map((seg) => encodeURIComponent(seg))
    .join("/");
}

/** Link target for a call site; only file:// and http(s) link bases are produced. */
export function siteHref(root: string, file: string, line: number, linkBase?: string): string | null {
  if (linkBase) {
    if (!isSafeHref(linkBase)) return null;
    const base = linkBase.endsWith("/") ? linkBase : linkBase + "/";
    return `${base}${encodePath(file.replace(/^\/+/, ""))}#L${line}`;
  }
  const normalizedFile = file.replace(/\\/g, "/");
  if (normalizedFile.startsWith("/")) return `file://${encodePath(normalizedFile)}`;
  if (!root) return null;
  const r = root.replace(/\\/g, "/").replace(/\/+$/, "");
  const abs = /^[A-Za-z]:\//.test(r) ? `/${r}` : r; // Windows drive roots: file:///C:/…
  return `file://${encodePath(abs)}/${encodePath(normalizedFile)}`;
}

function minuteLabel(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 16).replace("T", " ");
}

function laterOf(a: string, b: string): string {
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

function earlierOf(a: string, b: string): string {
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

export function buildReport(
  table: readonly TableOperation[],
  audits: readonly Audit[],
  usage: Usage | null,
  options: JoinOptions = {},
): ReportModel {
  const notes: string[] = [];
  const byKey = new Map(table.map((op) => [op.key, op]));
  const tableIndex = new Map(table.map((op, i) => [op.key, i]));
  const byRoute = new Map(table.map((op) => [`${op.v1.method.toUpperCase()} ${op.v1.path}`, op]));
  const ordered = [...audits].sort((a, b) => Date.parse(a.generatedAt) - Date.parse(b.generatedAt));
  const latest = ordered.at(-1) ?? null;

  const rows = new Map<string, OperationRow>();
  const rowFor = (key: string, v1FromInput: OperationRow["v1"]): OperationRow => {
    let row = rows.get(key);
    if (!row) {
      const op = byKey.get(key);
      row = {
        key,
        known: Boolean(op),
        summary: op?.summary ?? (key === UNIDENTIFIED ? "v1 usage not tied to one operation (base URLs, v1 host strings, paths the audit could not resolve)" : "not in the mapping table"),
        v1: op?.v1 ?? v1FromInput,
        v2: op?.v2 ?? null,
        status: op?.status ?? "unknown",
        decision: op?.decision ?? null,
        code: { ...zeroCategories(), total: 0 },
        sites: [],
        traffic: null,
        clientFingerprints: [],
        listedClients: 0,
      };
      rows.set(key, row);
    }
    return row;
  };

  const keyOfFinding = (f: AuditFinding): string => {
    if (f.operation) return f.operation;
    if (f.v1) {
      const op = byRoute.get(`${f.v1.method.toUpperCase()} ${f.v1.path}`);
      if (op) return op.key;
    }
    return UNIDENTIFIED;
  };

  // ── code: the newest audit ──────────────────────────────────────────────
  const codeByCategory = zeroCategories();
  const unknownCodeKeys = new Set<string>();
  if (latest) {
    for (const f of latest.findings) {
      const key = keyOfFinding(f);
      if (key !== UNIDENTIFIED && !byKey.has(key)) unknownCodeKeys.add(key);
      const row = rowFor(key, f.v1);
      row.code[f.category] += 1;
      row.code.total += 1;
      codeByCategory[f.category] += 1;
      row.sites.push({
        file: f.file,
        line: f.line,
        column: f.column,
        category: f.category,
        reason: f.reason,
        advice: f.advice,
        snippet: f.snippet,
        href: siteHref(latest.root, f.file, f.line, options.linkBase),
      });
    }
    for (const row of rows.values()) {
      row.sites.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
    }
    if (latest.summary.findings !== latest.findings.length) {
      notes.push(
        `The newest audit's summary counts ${latest.summary.findings} findings but lists ${latest.findings.length}; the report counts the listed ones.`,
      );
    }
    const roots = new Set(ordered.map((a) => a.root));
    if (roots.size > 1) notes.push(`The audits were taken of different roots (${[...roots].join(", ")}); the burn-down mixes them.`);
  }
  if (unknownCodeKeys.size) {
    notes.push(`The audit names operations that are not in the mapping table: ${[...unknownCodeKeys].sort().join(", ")}.`);
  }

  // ── traffic ─────────────────────────────────────────────────────────────
  const unknownTrafficKeys = new Set<string>();
  if (usage) {
    for (const op of usage.operations) {
      if (!byKey.has(op.key)) unknownTrafficKeys.add(op.key);
      const row = rowFor(op.key, op.v1);
      const prev = row.traffic;
      row.traffic = prev
        ? {
            // A snapshot should list each key once; if not, add up rather than drop.
            count: prev.count + op.count,
            clients: Math.max(prev.clients, op.clients),
            firstSeen: earlierOf(prev.firstSeen, op.firstSeen),
            lastSeen: laterOf(prev.lastSeen, op.lastSeen),
            statuses: Object.fromEntries(
              [...new Set([...Object.keys(prev.statuses), ...Object.keys(op.statuses)])].map((s) => [
                s,
                (prev.statuses[s] ?? 0) + (op.statuses[s] ?? 0),
              ]),
            ),
          }
        : { count: op.count, clients: op.clients, firstSeen: op.firstSeen, lastSeen: op.lastSeen, statuses: { ...op.statuses } };
    }
    const pairsByKey = new Map<string, Set<string>>();
    for (const client of usage.clients) {
      for (const key of Object.keys(client.operations)) {
        if (!byKey.has(key)) unknownTrafficKeys.add(key);
        const row = rowFor(key, null);
        if (!row.clientFingerprints.includes(client.fingerprint)) row.clientFingerprints.push(client.fingerprint);
        const pairs = pairsByKey.get(key) ?? new Set<string>();
        pairs.add(`${client.fingerprint}\n${client.userAgent ?? ""}`);
        pairsByKey.set(key, pairs);
        row.listedClients = pairs.size;
      }
    }
    if (usage.totals.evictedClients > 0) {
      notes.push(
        `The gateway stopped tracking ${usage.totals.evictedClients} client fingerprint(s) individually (client table full); their calls still count in the per-operation numbers.`,
      );
    }
    const listed = usage.clients.length;
    if (usage.totals.clients > listed) {
      notes.push(`The gateway counted ${usage.totals.clients} clients but listed ${listed}; the client table shows the listed ones.`);
    }
  }
  if (unknownTrafficKeys.size) {
    notes.push(`The gateway reported operations that are not in the mapping table: ${[...unknownTrafficKeys].sort().join(", ")}.`);
  }

  // ── order: no-equivalent first, then table order, then keys outside the table ──
  const rank = (row: OperationRow): number =>
    row.status === "no-equivalent" ? -1 : (tableIndex.get(row.key) ?? table.length + (row.key === UNIDENTIFIED ? 1 : 0));
  const operations = [...rows.values()].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
  for (const row of operations) row.clientFingerprints.sort();

  const clearOperations = table
    .filter((op) => !rows.has(op.key))
    .map((op) => ({ key: op.key, v1: op.v1, status: op.status }));

  // ── clients ─────────────────────────────────────────────────────────────
  const clients: ClientRow[] = (usage?.clients ?? [])
    .map((c) => ({
      fingerprint: c.fingerprint,
      anonymous: c.fingerprint === ANONYMOUS,
      userAgent: c.userAgent ? c.userAgent : null,
      count: c.count,
      firstSeen: c.firstSeen,
      lastSeen: c.lastSeen,
      operations: Object.entries(c.operations)
        .map(([key, seen]) => ({
          key,
          known: byKey.has(key),
          noEquivalent: byKey.get(key)?.status === "no-equivalent",
          count: seen.count,
          lastSeen: seen.lastSeen,
        }))
        .sort((a, b) => Number(b.noEquivalent) - Number(a.noEquivalent) || b.count - a.count || a.key.localeCompare(b.key)),
    }))
    .sort((a, b) => b.count - a.count || Date.parse(b.lastSeen) - Date.parse(a.lastSeen) || a.fingerprint.localeCompare(b.fingerprint));

  // ── needs a decision: no-equivalent operations, then no-equivalent call sites elsewhere ──
  const attention: AttentionItem[] = [];
  for (const op of table.filter((o) => o.status === "no-equivalent")) {
    const row = rows.get(op.key);
    attention.push({
      key: op.key,
      v1: op.v1,
      title: `${op.summary} has no v2 equivalent`,
      message: op.decision?.message ?? "no v2 equivalent",
      advice: op.decision?.advice ?? "",
      codeSites: row?.code.total ?? 0,
      liveCalls: row?.traffic?.count ?? 0,
      liveClients: row ? Math.max(row.traffic?.clients ?? 0, row.listedClients) : 0,
      sites: row?.sites ?? [],
    });
  }
  const groups = new Map<string, AttentionItem>();
  for (const row of operations) {
    if (row.status === "no-equivalent") continue;
    for (const site of row.sites) {
      if (site.category !== "no-equivalent") continue;
      const id = `${row.key}\u0000${site.reason}`;
      let item = groups.get(id);
      if (!item) {
        item = {
          key: row.key,
          v1: row.v1,
          title: site.reason || `${row.key}: no v2 equivalent`,
          message: site.reason,
          advice: site.advice || row.decision?.advice || "",
          codeSites: 0,
          liveCalls: row.traffic?.count ?? 0,
          liveClients: Math.max(row.traffic?.clients ?? 0, row.listedClients),
          sites: [],
        };
        groups.set(id, item);
      }
      item.codeSites += 1;
      item.sites.push(site);
    }
  }
  attention.push(...[...groups.values()].sort((a, b) => b.codeSites - a.codeSites || a.key.localeCompare(b.key)));
  // Used ones first, then the ones already at zero.
  attention.sort((a, b) => Number(b.codeSites + b.liveCalls > 0) - Number(a.codeSites + a.liveCalls > 0));

  // ── burn-down ───────────────────────────────────────────────────────────
  const burndown: BurndownPoint[] = ordered.map((a) => {
    const byCategory = zeroCategories();
    for (const f of a.findings) byCategory[f.category] += 1;
    return { generatedAt: a.generatedAt, total: a.findings.length, byCategory, label: minuteLabel(a.generatedAt) };
  });

  const knownRows = operations.filter((r) => r.known);
  return {
    generatedAt: (options.now ?? new Date()).toISOString(),
    code: {
      audits: ordered.map((a) => ({
        generatedAt: a.generatedAt,
        root: a.root,
        files: a.summary.files,
        filesWithFindings: a.summary.filesWithFindings,
        findings: a.findings.length,
      })),
      latest: latest
        ? { generatedAt: latest.generatedAt, root: latest.root, files: latest.summary.files, filesWithFindings: latest.summary.filesWithFindings }
        : null,
    },
    traffic: usage ? { generatedAt: usage.generatedAt, since: usage.since, source: options.trafficSource ?? null } : null,
    totals: {
      codeSites: CATEGORIES.reduce((n, c) => n + codeByCategory[c], 0),
      byCategory: codeByCategory,
      liveRequests: usage?.totals.requests ?? 0,
      liveClients: usage?.totals.clients ?? 0,
      evictedClients: usage?.totals.evictedClients ?? 0,
      tableOperations: table.length,
      operationsInUse: knownRows.length,
      operationsInCode: knownRows.filter((r) => r.code.total > 0).length,
      operationsInTraffic: knownRows.filter((r) => (r.traffic?.count ?? 0) > 0 || r.clientFingerprints.length > 0).length,
    },
    attention,
    operations,
    clearOperations,
    clients,
    burndown,
    drops: buildDrops(table, usage),
    notes,
  };
}
