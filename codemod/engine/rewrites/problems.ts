// What a rewrite step could not do at a site: each becomes a TODO mark naming the problem.
// `brief` is the mark's one line where the reason is long (the full reason stays in the finding).
// `risk` is what the problem would do to a call sent to v2 as it is; the mark names the riskiest
// problem first (mark-problems.ts). Unset: the request itself would fail ("fails").
export type Risk = "silent" | "fails" | "loss" | "elsewhere";
export type Problem = { reason: string; advice: string; brief?: string; risk?: Risk };
export type Problems = Problem[];
