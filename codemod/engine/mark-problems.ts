// A site's problems, in the order its mark and its finding give them: the mark names the first
// one briefly (`(+K more)` for the rest), the finding keeps every problem with its advice.
// First comes what would go wrong unseen if the call were sent to v2 as it is (v1 fields read,
// an error body's `message`, a filter v2 ignores: "silent"), then what v2 would refuse ("fails",
// the default: path, method, body, Content-Type), then what v2 does not offer ("loss": no
// equivalent, a difference the migrated call keeps), then a reason outside the site ("elsewhere":
// kept on v1 with its base, a held file). Within a rank, the order the planner found them.
import type { Finding } from "../types.ts";
import type { Problems, Risk } from "./rewrites/problems.ts";

const RANK: Record<Risk, number> = { silent: 0, fails: 1, loss: 2, elsewhere: 3 };

/** The problems, riskiest first (a stable sort: the planner's order within a rank). */
export function byRisk(problems: Problems): Problems {
  return problems.map((p, i) => ({ p, i })).sort((x, y) => RANK[x.p.risk ?? "fails"] - RANK[y.p.risk ?? "fails"] || x.i - y.i).map(({ p }) => p);
}

/** The longest a mark's reason is (positions like `pods.ts:12` count as one character each side). */
export const SHORT_REASON = 100;

/** Where a clause ends (`, ` `; ` `: ` ` — `, before ` because ` or a parenthesis) and where a word ends, outside parentheses, brackets and quotes. */
function breaks(text: string): { clauses: number[]; words: number[] } {
  const clauses: number[] = [];
  const words: number[] = [];
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    else if (depth > 0) continue;
    else if (text[i + 1] === " " && (c === "," || c === ";" || c === ":")) clauses.push(i);
    else if (c === " " && (text[i + 1] === "(" || text.startsWith(" — ", i) || text.startsWith(" because ", i))) clauses.push(i);
    else if (c === " ") words.push(i);
  }
  return { clauses, words };
}

/**
 * A reason in at most SHORT_REASON characters: whole, else cut after its last clause that fits
 * (when that keeps at least 40), else after a word, with `…`; never inside parentheses or quotes
 * where it can help. Lengths are measured with positions normalised, so a mark cut in one run is
 * cut the same way when a later run reads it back with its lines moved.
 */
export function shortReason(text: string, max = SHORT_REASON): string {
  const size = (s: string) => s.replace(/(\.[cm]?[jt]sx?):\d+/g, "$1:#").length;
  if (size(text) <= max) return text;
  const { clauses, words } = breaks(text);
  const fits = (at: number[], room: number) => at.filter((i) => i >= 40 && size(text.slice(0, i)) <= room).pop();
  const clause = fits(clauses, max);
  if (clause !== undefined) return text.slice(0, clause);
  const word = fits(words, max - 1) ?? fits([...text.matchAll(/ /g)].map((m) => m.index!), max - 1);
  return `${text.slice(0, word ?? max - 1).replace(/[,;:]$/, "")}…`;
}

/** The finding keeps every problem with its advice, after those it has (a later one is a reason outside the site). */
export function keepProblems(finding: Finding, problems: Problems): void {
  finding.problems = [...(finding.problems ?? []), ...byRisk(problems).map(({ reason, advice }) => ({ reason, advice }))];
}
