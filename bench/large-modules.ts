// The "large" corpus variant of `bench:codemod`: besides the single-file v1 clients, one module in
// a hundred is a large class (hundreds of methods reading and assigning `this` members, calling
// their own members) that also makes one v1 call, so the codemod must parse and analyse it. Real
// projects have such modules (a job queue, a store, a view of several thousand lines); the small
// generated modules of the other variants never showed costs that grow with a module's size (each
// member read walking the whole class, each use search the whole module).

/** A class of `methods` methods, one of them a v1 call (ListPods), in about 9 lines a method. */
export function largeClassModule(i: number, methods = 300): string {
  const lines = [
    `// Module ${i}: a large stateful service class.`,
    `type Job${i} = { id: string; attempts: number; payload: Record<string, unknown> };`,
    ``,
    `export class Service${i} {`,
    `  private jobs = new Map<string, Job${i}>();`,
    `  private counter = 0;`,
    `  private log: string[] = [];`,
    `  constructor(private readonly name: string, private readonly limit = 10) {}`,
    ``,
    `  async listPods(apiKey: string): Promise<unknown[]> {`,
    `    const res = await fetch("https://rest.runpod.io/v1/pods", { headers: { Authorization: \`Bearer \${apiKey}\` } });`,
    `    return (await res.json()) as unknown[];`,
    `  }`,
  ];
  for (let m = 0; m < methods; m++) {
    lines.push(
      ``,
      `  step${m}(id: string): number {`,
      `    const job = this.jobs.get(id) ?? { id, attempts: 0, payload: {} };`,
      `    this.counter = this.counter + job.attempts + ${m};`,
      `    this.log.push(this.name + ":${m}:" + id);`,
      `    if (job.attempts > this.limit) return this.step${(m + 1) % methods}(id);`,
      `    this.jobs.set(id, { ...job, attempts: job.attempts + 1 });`,
      `    return this.counter;`,
      `  }`,
    );
  }
  lines.push(`}`, ``);
  return lines.join("\n");
}
