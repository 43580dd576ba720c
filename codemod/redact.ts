// Findings and diffs quote source lines: never let a bearer token or API key through.

const RULES: [RegExp, string | ((...m: string[]) => string)][] = [
  // Authorization: Bearer <token>
  [/(Bearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi, "$1<redacted>"],
  // apiKey: "…", token = '…', "Authorization": "…", secret: `…`
  [/((?:api[_-]?key|apikey|token|secret|password|authorization|x-api-key)["']?\s*[:=]\s*)(["'`])((?:(?!\2).)+)\2/gi, (_m, head: string, q: string) => `${head}${q}<redacted>${q}`],
  // Key-shaped literals: runpod keys (rpa_…), long hex/base64ish runs.
  [/\brpa_[A-Za-z0-9]{8,}\b/g, "<redacted>"],
  [/(["'`])[A-Za-z0-9_-]{32,}\1/g, "$1<redacted>$1"],
];

export function redact(line: string): string {
  let out = line;
  for (const [re, rep] of RULES) out = out.replace(re, rep as any);
  return out;
}
