// The sandbox's records at the end of a run, as plain data: what the run left behind. Pods are
// read through the API first so their status has caught up with the clock (a pod's boot advances
// when it is read). Registry passwords are kept as a hash: compared, never shown.
import { createHash } from "node:crypto";
import type { SandboxStore } from "../sandbox/store.ts";
import { SANDBOX_KEY } from "./child-env.ts";
import type { Normaliser } from "./normalise.ts";

export type Records = Record<string, Record<string, unknown>[]>;

const KINDS: Record<string, string> = { pods: "pod", endpoints: "endpoint", templates: "template", networkVolumes: "volume", registries: "registry", delegations: "delegation" };

export async function snapshotRecords(sandboxUrl: string, store: SandboxStore): Promise<Records> {
  await fetch(`${sandboxUrl}/v2/pods`, { headers: { authorization: `Bearer ${SANDBOX_KEY}`, "x-request-id": "v2b-verify-snapshot" } }).then((r) => r.arrayBuffer());
  const hash = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex").slice(0, 12)}`;
  return structuredClone({
    pods: [...store.pods.values()],
    endpoints: [...store.endpoints.values()].map((s) => ({ ...s.endpoint, version: s.version, releases: s.releases })),
    templates: [...store.templates.values()],
    networkVolumes: [...store.networkVolumes.values()],
    registries: [...store.registries.values()].map((r) => ({ ...r, password: hash(r.password) })),
    delegations: [...store.delegations.values()],
    sshKeys: store.sshKeys.map((key) => ({ key })),
  });
}

/** Labels the records' ids (after the ids the run's creates answered), so both runs name them alike. */
export function labelRecordIds(records: Records, normaliser: Normaliser): void {
  for (const [collection, list] of Object.entries(records)) {
    for (const record of list) {
      normaliser.add(record.id, KINDS[collection] ?? "id");
      for (const release of (record.releases as { id?: unknown }[] | undefined) ?? []) normaliser.add(release.id, "release");
    }
  }
}

export type RecordDifference = { collection: string; label: string; only?: "before" | "after"; fields: string[] };

/** Record by record (matched by label), field by field, after normalising both sides. */
export function diffRecords(before: Records, after: Records, nb: Normaliser, na: Normaliser): RecordDifference[] {
  const out: RecordDifference[] = [];
  for (const collection of Object.keys({ ...before, ...after })) {
    const b = keyed((before[collection] ?? []).map((r) => nb.value(r) as Record<string, unknown>));
    const a = keyed((after[collection] ?? []).map((r) => na.value(r) as Record<string, unknown>));
    for (const [label, record] of b) {
      const other = a.get(label);
      if (!other) out.push({ collection, label, only: "before", fields: [] });
      else {
        const fields = diffValues(record, other, "");
        if (fields.length) out.push({ collection, label, fields });
      }
    }
    for (const label of a.keys()) if (!b.has(label)) out.push({ collection, label, only: "after", fields: [] });
  }
  return out;
}

function keyed(records: Record<string, unknown>[]): Map<string, Record<string, unknown>> {
  return new Map(records.map((r, i) => [typeof r.id === "string" ? r.id : typeof r.key === "string" ? r.key : `#${i + 1}`, r]));
}

/** "path: before → after" lines, at most a few per record. */
export function diffValues(b: unknown, a: unknown, at: string, out: string[] = []): string[] {
  if (out.length >= 12) return out;
  if (JSON.stringify(b) === JSON.stringify(a)) return out;
  if (b && a && typeof b === "object" && typeof a === "object" && !Array.isArray(b) && !Array.isArray(a)) {
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
    for (const k of keys) diffValues((b as Record<string, unknown>)[k], (a as Record<string, unknown>)[k], at ? `${at}.${k}` : k, out);
    return out;
  }
  // Values under credential-like names (env.HF_TOKEN, password) are compared, never shown.
  out.push(CREDENTIAL.test(at) ? `${at}: differs (value not shown)` : `${at || "(whole)"}: ${show(b)} → ${show(a)}`);
  return out;
}

const CREDENTIAL = /(^|\.)(env\.[^.]+|[^.]*(password|secret|token|key)[^.]*)$/i;

function show(v: unknown): string {
  if (v === undefined) return "(absent)";
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}
