// Lines up the operations of two runs: the longest common subsequence of their keys, so an extra
// or missing operation shows as one, and everything after it still pairs up.

export type Aligned = { before?: number; after?: number };

const MAX_CELLS = 25_000_000;

export function align(before: string[], after: string[]): Aligned[] {
  const n = before.length;
  const m = after.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return greedy(before, after);
  // lengths[i][j] = LCS of before[i..] and after[j..], in one flat array.
  const w = m + 1;
  const lengths = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * w + j] = before[i] === after[j] ? lengths[(i + 1) * w + j + 1]! + 1 : Math.max(lengths[(i + 1) * w + j]!, lengths[i * w + j + 1]!);
    }
  }
  const out: Aligned[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (before[i] === after[j]) out.push({ before: i++, after: j++ });
    else if (lengths[(i + 1) * w + j]! >= lengths[i * w + j + 1]!) out.push({ before: i++ });
    else out.push({ after: j++ });
  }
  while (i < n) out.push({ before: i++ });
  while (j < m) out.push({ after: j++ });
  return out;
}

/** Very long runs: pair in order, key by key (quadratic memory would not fit). */
function greedy(before: string[], after: string[]): Aligned[] {
  const out: Aligned[] = [];
  let j = 0;
  for (let i = 0; i < before.length; i++) {
    const k = after.indexOf(before[i]!, j);
    if (k < 0) {
      out.push({ before: i });
      continue;
    }
    while (j < k) out.push({ after: j++ });
    out.push({ before: i, after: j++ });
  }
  while (j < after.length) out.push({ after: j++ });
  return out;
}
