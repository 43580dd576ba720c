// ts-morph's `findReferencesAsNodes`, without the display text. The language service's
// findReferences describes each definition it finds (its signature printed through the checker:
// half of the audit's find-references time in a profile of the monorepo bench), and ts-morph reads only the
// definition's kind, to keep the first reference of an alias. The kind is "alias" only for a
// symbol with the alias flag (symbolDisplay.ts), so only such a definition is still described.
// The rest is the service's own steps, in its order: the same groups, entries and nodes.
import { ts, type Node, type TypeScript } from "../ts-morph.ts";

type Internals = {
  FindAllReferences?: {
    Core?: {
      getReferencedSymbolsForNode?(position: number, node: TypeScript.Node, program: TypeScript.Program, sourceFiles: readonly TypeScript.SourceFile[], token: unknown, options: object): Group[] | undefined;
      getAdjustedNode?(node: TypeScript.Node, options: object): TypeScript.Node;
      getIntersectingMeaningFromDeclarations?(node: TypeScript.Node, symbol: TypeScript.Symbol): number;
    };
    toReferenceEntry?(entry: Entry): { fileName: string; textSpan: TypeScript.TextSpan };
    isDeclarationOfSymbol?(node: TypeScript.Node, symbol: TypeScript.Symbol): boolean;
  };
  SymbolDisplay?: { getSymbolDisplayPartsDocumentationAndSymbolKind?(...args: unknown[]): { symbolKind: string } };
  getTouchingPropertyName?(sf: TypeScript.SourceFile, position: number): TypeScript.Node;
  getDeclarationFromName?(node: TypeScript.Node): unknown;
  isLiteralComputedPropertyDeclarationName?(node: TypeScript.Node): boolean;
  getCombinedLocalAndExportSymbolFlags?(symbol: TypeScript.Symbol): number;
};
type Entry = { kind: number; node: TypeScript.Node };
type Group = { definition?: { type: number; symbol?: TypeScript.Symbol }; references: Entry[] };
type Factory = { getReferencedSymbolEntry(o: object): { getNode(): Node } };

const internals = ts as unknown as Internals;
const FAR = internals.FindAllReferences;
const REFERENCES = { use: 1 /* FindReferencesUse.References */ };
const NO_CANCELLATION = { isCancellationRequested: () => false, throwIfCancellationRequested: () => {} };
const SYMBOL_DEFINITION = 0; // DefinitionKind.Symbol; the other kinds are never "alias"
const SPAN_ENTRY = 0; // EntryKind.Span

/** The nodes ts-morph's `node.findReferencesAsNodes()` gives, or undefined where this cannot answer as it does (then ask ts-morph). */
export function referencingNodes(node: Node, program: TypeScript.Program): Node[] | undefined {
  const core = FAR?.Core;
  const factory = (node as unknown as { _context?: { compilerFactory?: Factory } })._context?.compilerFactory;
  // ts-morph asks about the node itself only for these kinds (getNodeForReferences).
  if (!core?.getReferencedSymbolsForNode || !core.getAdjustedNode || !core.getIntersectingMeaningFromDeclarations || !FAR?.toReferenceEntry || !FAR.isDeclarationOfSymbol) return undefined;
  if (!internals.SymbolDisplay?.getSymbolDisplayPartsDocumentationAndSymbolKind || !internals.getTouchingPropertyName || !internals.getDeclarationFromName) return undefined;
  if (!internals.isLiteralComputedPropertyDeclarationName || !internals.getCombinedLocalAndExportSymbolFlags || !factory?.getReferencedSymbolEntry) return undefined;
  const kind = node.getKind();
  if (kind !== ts.SyntaxKind.Identifier && kind !== ts.SyntaxKind.StringLiteral) return undefined;
  const sf = program.getSourceFile(node.getSourceFile().getFilePath());
  if (!sf) return undefined;
  // FindAllReferences.findReferencedSymbols, the definitions' display left out.
  const position = node.getStart();
  const touching = internals.getTouchingPropertyName(sf, position);
  const groups = core.getReferencedSymbolsForNode(position, touching, program, program.getSourceFiles(), NO_CANCELLATION, REFERENCES);
  const checker = program.getTypeChecker();
  const adjusted = core.getAdjustedNode(touching, REFERENCES);
  const symbol = isDefinitionForReference(adjusted) ? checker.getSymbolAtLocation(adjusted) : undefined;
  const out: Node[] = [];
  for (const { definition, references } of groups ?? []) {
    if (!definition) continue;
    const isAlias = definition.type === SYMBOL_DEFINITION && definition.symbol !== undefined && definitionKind(definition.symbol, touching, checker) === ts.ScriptElementKind.alias;
    references.forEach((r, i) => {
      const isDefinition = symbol ? r.kind !== SPAN_ENTRY && FAR.isDeclarationOfSymbol!(r.node, symbol) : undefined;
      // ts-morph's rule: an alias's references all, else all but a first that is the definition.
      if (!isAlias && isDefinition && i === 0) return;
      out.push(factory.getReferencedSymbolEntry({ ...FAR.toReferenceEntry!(r), ...(symbol ? { isDefinition } : {}) }).getNode());
    });
  }
  return out;
}

/** The service's isDefinitionForReference (not exported). */
function isDefinitionForReference(node: TypeScript.Node): boolean {
  return (
    node.kind === ts.SyntaxKind.DefaultKeyword ||
    !!internals.getDeclarationFromName!(node) ||
    internals.isLiteralComputedPropertyDeclarationName!(node) ||
    (node.kind === ts.SyntaxKind.ConstructorKeyword && ts.isConstructorDeclaration(node.parent))
  );
}

/** The definition's kind as the service names it (getDefinitionKindAndDisplayParts), worked out only where it can be "alias". */
function definitionKind(symbol: TypeScript.Symbol, node: TypeScript.Node, checker: TypeScript.TypeChecker): string | undefined {
  if (!(internals.getCombinedLocalAndExportSymbolFlags!(symbol) & ts.SymbolFlags.Alias)) return undefined;
  const meaning = FAR!.Core!.getIntersectingMeaningFromDeclarations!(node, symbol);
  const enclosing = symbol.declarations?.[0] ?? node;
  return internals.SymbolDisplay!.getSymbolDisplayPartsDocumentationAndSymbolKind!(checker, symbol, enclosing.getSourceFile(), enclosing, enclosing, meaning).symbolKind;
}
