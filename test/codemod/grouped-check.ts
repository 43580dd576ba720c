// Type-checks many fixture cases as one program instead of one program each, where that gives every
// case exactly the diagnostics its own program would. A program per case re-creates the checker and
// resolves the standard library's (and lib.dom's, @types/node's) global types again each time: one
// program over all cases did the same work about 3.5 times faster.
//
// Why a shared program gives each case its own program's diagnostics: a file's diagnostics depend on
// its text, the options, the modules it reaches and the global scope. Cases sit in their own folders,
// so they reach the same modules either way. The global scope is the same where no file added to the
// program changes it: a case's files must be modules (their declarations stay their own) with no
// `declare global`, `declare module "…"`, `export as namespace` or triple-slash directive; a library
// file one case brings in must not change it either (a script, or one of those declarations), or the
// cases that reach it are checked alone, as before. One thing a checker counts across files: it
// offers spelling suggestions for the first 10 unresolved names only, so a case with an unresolved
// name is checked alone too. Anything not shown safe is checked alone.
import ts from "typescript";
import { memoryHost } from "./memory-host.ts";

export interface CheckCase {
  name: string;
  /** Absolute path → text: the files compiled from memory. */
  files: Map<string, string>;
}

/** Per case: the diagnostics in its own files, and the program-wide (file-less) ones. */
export type CaseDiagnostics = Map<string, ts.Diagnostic[]>;

/** Declarations that reach past a file: a global augmentation, an ambient or augmenting module, a UMD global. */
function changesOthers(sf: ts.SourceFile): boolean {
  if (sf.referencedFiles.length || sf.typeReferenceDirectives.length || sf.libReferenceDirectives.length || sf.hasNoDefaultLib) return true;
  return sf.statements.some((s) => ts.isNamespaceExportDeclaration(s) || (ts.isModuleDeclaration(s) && (ts.isStringLiteral(s.name) || (s.flags & ts.NodeFlags.GlobalAugmentation) !== 0)));
}

/** A module file (its top-level names are its own) that declares nothing for other files. */
const keepsToItself = (sf: ts.SourceFile) => (ts.isExternalModule(sf) || (sf as { commonJsModuleIndicator?: unknown }).commonJsModuleIndicator !== undefined) && !changesOthers(sf);

type WithResolutions = ts.Program & {
  forEachResolvedModule?(cb: (r: ts.ResolvedModuleWithFailedLookupLocations) => void, file: ts.SourceFile): void;
  forEachResolvedTypeReferenceDirective?(cb: (r: ts.ResolvedTypeReferenceDirectiveWithFailedLookupLocations) => void, file: ts.SourceFile): void;
};

/** Files of `program` reachable from `roots` through imports and references (not looking into `base`, which every program holds). */
function reachable(program: WithResolutions, roots: string[], base: Set<string>): Set<string> | undefined {
  if (!program.forEachResolvedModule || !program.forEachResolvedTypeReferenceDirective) return undefined;
  const seen = new Set<string>();
  const queue = roots.map((r) => program.getSourceFile(r)).filter((sf): sf is ts.SourceFile => !!sf);
  while (queue.length) {
    const sf = queue.pop()!;
    if (seen.has(sf.fileName)) continue;
    seen.add(sf.fileName);
    if (base.has(sf.fileName)) continue;
    const next: string[] = sf.referencedFiles.map((r) => ts.resolveTripleslashReference(r.fileName, sf.fileName));
    program.forEachResolvedModule((r) => r.resolvedModule && next.push(r.resolvedModule.resolvedFileName), sf);
    program.forEachResolvedTypeReferenceDirective((r) => r.resolvedTypeReferenceDirective?.resolvedFileName && next.push(r.resolvedTypeReferenceDirective.resolvedFileName), sf);
    for (const f of next) {
      const target = program.getSourceFile(f);
      if (target && !seen.has(target.fileName)) queue.push(target);
    }
  }
  return seen;
}

/**
 * "Cannot find name" and its kin: the checker tries a spelling suggestion ("Did you mean 'fetch'?")
 * for only the first 10 unresolved names of a program, so in a shared program a case's message can
 * lose its suggestion to other cases' unresolved names. A case with any of these is checked alone.
 */
const UNRESOLVED_NAME = new Set([2304, 2552, 2503, 2833, 2580, 2581, 2582, 2583, 2584, 2591, 2592, 2593]);

function program(files: Map<string, string>, extraRoots: string[], options: ts.CompilerOptions, shared: Map<string, ts.SourceFile>): ts.Program {
  return ts.createProgram([...extraRoots, ...files.keys()], options, memoryHost(options, files, shared));
}

function diagnosticsOf(p: ts.Program, cases: CheckCase[], extraRoots: string[]): CaseDiagnostics {
  const owner = new Map<string, string>();
  for (const c of cases) for (const f of c.files.keys()) owner.set(f, c.name);
  const everyCase = new Set(extraRoots);
  const out: CaseDiagnostics = new Map(cases.map((c) => [c.name, []]));
  for (const d of ts.getPreEmitDiagnostics(p)) {
    // A program-wide diagnostic, or one in a shared root, belongs to every case (each case's own program had it).
    if (!d.file || everyCase.has(d.file.fileName)) for (const c of cases) out.get(c.name)!.push(d);
    else {
      const name = owner.get(d.file.fileName);
      if (name) out.get(name)!.push(d);
    }
  }
  return out;
}

/**
 * The diagnostics each case's own program (its files, plus `extraRoots` such as a shared types
 * file, under `options`) gives, computed in as few programs as that allows. Paths must be absolute
 * and normalised (as `path.resolve` gives them); no two cases may share a file.
 */
export function checkCases(cases: CheckCase[], options: ts.CompilerOptions, shared: Map<string, ts.SourceFile>, extraRoots: string[] = []): CaseDiagnostics {
  const out: CaseDiagnostics = new Map();
  const alone = (c: CheckCase) => out.set(c.name, diagnosticsOf(program(c.files, extraRoots, options, shared), [c], extraRoots).get(c.name)!);
  // What every program holds whatever its cases: the standard library, `types`, the extra roots.
  const base = new Set(program(new Map(), extraRoots, options, shared).getSourceFiles().map((sf) => sf.fileName));
  const all = new Map<string, string>();
  for (const c of cases) for (const [f, t] of c.files) all.set(f, t);
  const together = program(all, extraRoots, options, shared) as WithResolutions;
  together.getTypeChecker(); // binds every file: a CommonJS file is known as a module only then
  const own = (c: CheckCase) => [...c.files.keys()].every((f) => {
    const sf = together.getSourceFile(f);
    return !!sf && keepsToItself(sf);
  });
  const global = new Set(together.getSourceFiles().filter((sf) => !base.has(sf.fileName) && !all.has(sf.fileName) && !keepsToItself(sf)).map((sf) => sf.fileName));
  const grouped: CheckCase[] = [];
  for (const c of cases) {
    // It reaches no file that changes the global scope, and no other case's file (in memory here, from disk in its own program).
    const reach = reachable(together, [...c.files.keys()], base);
    if (own(c) && reach && ![...reach].some((f) => global.has(f) || (all.has(f) && !c.files.has(f)))) grouped.push(c);
    else alone(c);
  }
  let groupedDiagnostics: CaseDiagnostics | undefined;
  if (grouped.length === cases.length) groupedDiagnostics = diagnosticsOf(together, cases, extraRoots);
  else if (grouped.length) {
    const files = new Map<string, string>();
    for (const c of grouped) for (const [f, t] of c.files) files.set(f, t);
    groupedDiagnostics = diagnosticsOf(program(files, extraRoots, options, shared), grouped, extraRoots);
  }
  for (const c of grouped) {
    const ds = groupedDiagnostics!.get(c.name)!;
    if (ds.some((d) => UNRESOLVED_NAME.has(d.code))) alone(c);
    else out.set(c.name, ds);
  }
  return out;
}

/**
 * Per-case results computed a chunk of cases at a time, when a test first asks for one of them: a
 * run filtered to one case (`-t`) compiles only its chunk, and no single step holds the whole run.
 */
export function byChunks<T>(names: string[], size: number, compute: (names: string[]) => Map<string, T>): (name: string) => T {
  const done = new Map<number, Map<string, T>>();
  return (name) => {
    const i = Math.floor(names.indexOf(name) / size);
    if (i < 0) throw new Error(`${name} is not one of the cases`);
    if (!done.has(i)) done.set(i, compute(names.slice(i * size, (i + 1) * size)));
    return done.get(i)!.get(name)!;
  };
}
