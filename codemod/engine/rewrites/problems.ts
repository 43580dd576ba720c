// What a rewrite step could not do at a site: each becomes a TODO mark naming the problem.
// `brief` is the mark's one line where the reason is long (the full reason stays in the finding).
export type Problems = { reason: string; advice: string; brief?: string }[];
