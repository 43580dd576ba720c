// A full v1 URL written as one entry of a list of candidate URLs that a loop tries in turn
// (`for (const url of [a, b, c]) await fetch(url, …)`): it does reach an HTTP call, through the
// loop variable, but one loop body sends every entry, so no entry can move to v2 on its own. The
// mark names the list, the call and the entries that are no v1 route.
import { Node, SyntaxKind } from "../ts-morph.ts";
import { referencesOf, skipParens } from "./nodes.ts";
import { enclosingFunction } from "./scope.ts";

export interface CandidateLoop {
  /** The list as written at the loop (`candidates`, or the literal's short text). */
  list: string;
  /** The loop variable. */
  variable: string;
  /** The call the loop variable is handed to (`fetch`). */
  sentBy: string;
  /** The loop variable where that call takes it (its method is written beside it). */
  argument: Node;
  /** The list's other entries. */
  others: Node[];
}

/** The loop that sends `entry` (an element of an array literal) through its variable, if any. */
export function candidateLoop(entry: Node): CandidateLoop | undefined {
  const array = skipParens(entry).getParent();
  if (!array || !Node.isArrayLiteralExpression(array)) return undefined;
  const held = array.getParent();
  const loops: Node[] = [];
  let list = "a list of URLs";
  if (Node.isForOfStatement(held) && held.getExpression() === array) loops.push(held);
  else if (held && Node.isVariableDeclaration(held) && held.getInitializer() === array && Node.isIdentifier(held.getNameNode())) {
    const declared = held.getParent();
    if (!declared || !Node.isVariableDeclarationList(declared) || declared.getDeclarationKind() !== "const") return undefined;
    list = held.getName();
    const refs = referencesOf(enclosingFunction(held), held.getNameNode()).filter((r) => r !== held.getNameNode());
    for (const r of refs) {
      const p = r.getParent();
      if (p && Node.isForOfStatement(p) && p.getExpression() === r) loops.push(p);
    }
  }
  for (const loop of loops) {
    if (!Node.isForOfStatement(loop)) continue;
    const init = loop.getInitializer();
    const decl = Node.isVariableDeclarationList(init) && init.getDeclarations().length === 1 ? init.getDeclarations()[0]! : undefined;
    const name = decl?.getNameNode();
    if (!name || !Node.isIdentifier(name)) continue;
    const call = loop.getStatement().getDescendantsOfKind(SyntaxKind.CallExpression).find((c) => {
      const first = c.getArguments()[0];
      return !!first && Node.isIdentifier(skipParens(first)) && skipParens(first).getText() === name.getText();
    });
    if (!call) continue;
    return { list, variable: name.getText(), sentBy: call.getExpression().getText(), argument: call.getArguments()[0]!, others: array.getElements().filter((e) => e !== skipParens(entry) && e !== entry) };
  }
  return undefined;
}
