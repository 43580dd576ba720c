// What an API key looks like, for every text the product writes: the gateway's log lines, error
// messages and headers (gateway/observability/redact.ts) and the codemod's report snippets
// (codemod/redact.ts). One table, so a key one output hides the other hides too.
// Each caller adds what only it knows: the gateway cuts the request's own credentials and the
// values of credential query parameters; the codemod cuts values assigned to key-named variables
// and flags in source and scripts. Each keeps its marker ("[redacted]" in the gateway's outputs,
// "<redacted>" in reports), as their documents and users already know them.

export interface KeyShape {
  name: string;
  /** Replaces every match; `$1` keeps a prefix (the `Bearer ` or the quote) and `<>` stands for the marker. */
  pattern: RegExp;
  replacement: string;
  /**
   * Found in every text the pattern can match, and cheap to look for: a text without it skips the
   * pattern (most texts hold no key, and a scan with lookbehinds tries every position).
   */
  hint: RegExp;
  /** A text of this shape, and the secret in it that must not survive (the tests run both outputs over these). */
  example: { text: string; secret: string };
}

export const KEY_SHAPES: readonly KeyShape[] = [
  {
    name: "bearer token (an Authorization value quoted in a message, a log or a line of code)",
    pattern: /(\bBearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi,
    replacement: "$1<>",
    hint: /bearer/i,
    example: { text: "Authorization: Bearer eyJhbGciOi.J9x-Yz_0", secret: "eyJhbGciOi.J9x-Yz_0" },
  },
  {
    name: "RunPod API key (rpa_…) or sandbox key (sandbox_…)",
    // At a word's start, or right after a percent-escape: `/v1/pods/x%2Frpa_…` in a logged URL.
    pattern: /(?:(?<![A-Za-z0-9_])|(?<=%[0-9A-Fa-f]{2}))(?:rpa|sandbox)_[A-Za-z0-9_-]{4,}/g,
    replacement: "<>",
    hint: /rpa_|sandbox_/,
    example: { text: "key rpa_5NQ2X8W1PLKD0F7H3JVT9M6C4B2Z", secret: "5NQ2X8W1PLKD0F7H3JVT9M6C4B2Z" },
  },
  {
    name: "quoted token of 32 or more letters, digits, - or _ (a key of an unknown provider)",
    pattern: /(["'`])[A-Za-z0-9_-]{32,}\1/g,
    replacement: "$1<>$1",
    hint: /["'`]/,
    example: { text: `token "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"`, secret: "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6" },
  },
];

/** Each shape's replacement with a marker in place, per marker (there are two). */
const replacements = new Map<string, string[]>();

/** `text` with every key-shaped string replaced by `marker`. */
export function redactKeys(text: string, marker: string): string {
  let withMarker = replacements.get(marker);
  if (!withMarker) replacements.set(marker, (withMarker = KEY_SHAPES.map((shape) => shape.replacement.replace("<>", marker))));
  let out = text;
  for (let i = 0; i < KEY_SHAPES.length; i++) {
    const shape = KEY_SHAPES[i]!;
    if (shape.hint.test(out)) out = out.replace(shape.pattern, withMarker[i]!);
  }
  return out;
}
