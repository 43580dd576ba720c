// What a test file could leave behind for the next file in a shared worker (`isolate: false`,
// vitest.config.ts): the environment (its contents, and the object itself: `process.env = copy`
// leaves a plain object whose writes no longer coerce to strings), the global fetch and its kin,
// undici's global dispatcher, and the process's stdout and stderr writers.
const DISPATCHER = Symbol.for("undici.globalDispatcher.1");

export interface ProcessState {
  envObject: NodeJS.ProcessEnv;
  env: Record<string, string | undefined>;
  globals: Record<string, unknown>;
}

export function processState(): ProcessState {
  const g = globalThis as Record<PropertyKey, unknown>;
  return {
    envObject: process.env,
    env: { ...process.env },
    globals: {
      fetch: g.fetch,
      Request: g.Request,
      Response: g.Response,
      Headers: g.Headers,
      "undici global dispatcher": g[DISPATCHER],
      "process.stdout.write": process.stdout.write,
      "process.stderr.write": process.stderr.write,
    },
  };
}

/** What differs between two states, one line each (empty: nothing left behind). */
export function leftBehind(before: ProcessState, after: ProcessState): string[] {
  const out: string[] = [];
  if (after.envObject !== before.envObject) out.push("process.env replaced by another object");
  for (const name of new Set([...Object.keys(before.env), ...Object.keys(after.env)])) {
    if (before.env[name] !== after.env[name]) out.push(`process.env.${name}: ${JSON.stringify(before.env[name])} → ${JSON.stringify(after.env[name])}`);
  }
  for (const name of Object.keys(before.globals)) if (before.globals[name] !== after.globals[name]) out.push(`${name} replaced`);
  return out;
}

/** Restores the environment in place to `saved` (a copy taken earlier): keys added since are removed. */
export function restoreEnv(saved: Record<string, string | undefined>): void {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
}
