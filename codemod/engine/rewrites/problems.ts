// What a rewrite step could not do at a site: each becomes a TODO mark naming the problem.
export type Problems = { reason: string; advice: string }[];
