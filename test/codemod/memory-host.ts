// A compiler host for the type-check tests: the files given are served from memory at their paths,
// everything else (the standard library, @types) from disk, parsed once into `shared` and handed to
// every program after (a program per fixture case: parsing lib.dom again each time was most of the run).
import path from "node:path";
import ts from "typescript";

export function memoryHost(options: ts.CompilerOptions, files: Map<string, string>, shared: Map<string, ts.SourceFile>): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => files.get(path.resolve(f)) ?? read(f);
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => files.has(path.resolve(f)) || exists(f);
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = files.get(path.resolve(f));
    if (text !== undefined) return ts.createSourceFile(f, text, lang);
    if (!shared.has(f)) {
      const sf = getSource(f, lang, ...rest);
      if (!sf) return sf;
      shared.set(f, sf);
    }
    return shared.get(f);
  };
  return host;
}
