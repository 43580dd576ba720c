// Which documented operation a concrete request path is: literal segments beat {params}, and a
// path may carry a server's base path (`/v2/pods` for `/pods` under `servers: [{url: ".../v2"}]`).
import type { OpenApiDocument } from "./reference.ts";

export type OperationMatch = {
  pathTemplate: string;
  operationId: string | undefined;
  params: Record<string, string>;
};

/** The operation matcher for a document, given the base paths its servers declare. */
export function operationMatcher(doc: OpenApiDocument, basePaths: string[]): (method: string, concretePath: string) => OperationMatch | null {
  const templates = Object.keys(doc.paths ?? {}).map((template) => ({
    template,
    segments: splitPath(template),
  }));
  return matchOperation;

  function matchOperation(method: string, concretePath: string): OperationMatch | null {
    const m = method.toLowerCase();
    const pathOnly = concretePath.split("?")[0];
    const candidates = [pathOnly];
    for (const base of basePaths) {
      if (base && (pathOnly === base || pathOnly.startsWith(base + "/"))) candidates.push(pathOnly.slice(base.length) || "/");
    }
    for (const candidate of candidates) {
      const segments = splitPath(candidate);
      let best: { template: string; score: number[]; params: Record<string, string> } | null = null;
      for (const t of templates) {
        if (t.segments.length !== segments.length) continue;
        if (!doc.paths[t.template]?.[m]) continue;
        const params: Record<string, string> = {};
        const score: number[] = [];
        let ok = true;
        for (let i = 0; i < segments.length; i++) {
          const ts = t.segments[i];
          const param = /^\{(.+)\}$/.exec(ts);
          if (param) {
            if (segments[i] === "") { ok = false; break; }
            params[param[1]] = safeDecode(segments[i]);
            score.push(0);
          } else if (ts === segments[i]) {
            score.push(1);
          } else {
            ok = false;
            break;
          }
        }
        if (ok && (!best || compareScore(score, best.score) > 0)) best = { template: t.template, score, params };
      }
      if (best) {
        return { pathTemplate: best.template, operationId: doc.paths[best.template][m]?.operationId, params: best.params };
      }
    }
    return null;
  }
}

export function serverBasePaths(doc: OpenApiDocument): string[] {
  const servers = (doc as any).servers as Array<{ url?: string }> | undefined;
  const out: string[] = [];
  for (const s of servers ?? []) {
    try {
      const p = new URL(s.url ?? "", "http://placeholder").pathname.replace(/\/+$/, "");
      if (p && !out.includes(p)) out.push(p);
    } catch {
      /* ignore unparsable server urls */
    }
  }
  return out;
}

function compareScore(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function splitPath(p: string): string[] {
  return p.replace(/^\/+/, "").split("/");
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
