// Environment reads as every pass recognises them: `process.env.X`, `process.env["X"]`,
// `import.meta.env.X`, `Bun.env.X` and Deno's `Deno.env.get("X")`. One rule, so a base read from the
// environment is renamed, modelled and named in messages the same way wherever it is met.

export type EnvRoot = "process.env" | "import.meta.env" | "Bun.env" | "Deno.env";

export interface EnvRead {
  root: EnvRoot;
  /** The variable's name. */
  name: string;
}

const READ = /^(process\.env|import\.meta\.env|Bun\.env)(?:\.([A-Za-z_$][\w$]*)|\[(["'])([^"']+)\3\])$|^(Deno\.env)\.get\((["'])([^"']+)\6\)$/;

/** The environment variable an expression's text reads, or null (whitespace is ignored). */
export function envRead(text: string): EnvRead | null {
  const m = READ.exec(text.replace(/\s/g, ""));
  if (!m) return null;
  return { root: (m[1] ?? m[5]) as EnvRoot, name: m[2] ?? m[4] ?? m[7]! };
}

/** How a base records where its value came from: `<root>.<name>` (`Deno.env.X` for Deno's getter). */
export function envKey(read: EnvRead): string {
  return `${read.root}.${read.name}`;
}

/** The read an `envKey` stands for. */
export function readOfEnvKey(key: string): EnvRead | null {
  const m = /^(process\.env|import\.meta\.env|Bun\.env|Deno\.env)\.([A-Za-z_$][\w$]*)$/.exec(key);
  return m ? { root: m[1] as EnvRoot, name: m[2]! } : null;
}
