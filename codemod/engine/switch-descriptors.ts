// A builder that switches over an action parameter and returns one descriptor per case
// (`route(action, id) { switch (action) { case "start": return { method, url }; … } }`). A call
// giving the action as a literal reaches one case: that case's literal is the descriptor it
// builds. An action not known at some call may reach any case: then no call is read as one
// (descriptors.ts leaves them all to the recall net, one finding per case where it is built).
import { Node, SyntaxKind } from "../ts-morph.ts";
import { literalText, unwrapExpression } from "./urls.ts";
import { builderCallers } from "./table-descriptors.ts";
import { referencesOf, writtenAt } from "./nodes.ts";

/** The switch over one of the builder's parameters holding every return, with that parameter's index. */
function actionSwitch(builder: Node, returns: Node[]): { clauses: Node[]; index: number } | undefined {
  const switches = builder.getDescendantsOfKind(SyntaxKind.SwitchStatement);
  if (switches.length !== 1) return undefined;
  const s = switches[0]!;
  if (!returns.every((r) => !!r.getFirstAncestor((x) => x === s))) return undefined;
  const subject = unwrapExpression(s.getExpression());
  const decl = Node.isIdentifier(subject) ? subject.getSymbol()?.getDeclarations()[0] : undefined;
  const params = ((builder as any).getParameters?.() ?? []) as Node[];
  const index = decl ? params.indexOf(decl) : -1;
  if (index < 0 || !Node.isIdentifier((decl as any).getNameNode())) return undefined;
  // (A parameter written in the builder is not the caller's action any more.)
  const written = referencesOf(builder, (decl as any).getNameNode()).some((r) => writtenAt(r));
  return written ? undefined : { clauses: s.getCaseBlock().getClauses(), index };
}

/** The object literal a clause returns first (following fall-through to the next clause with statements). */
function returnedBy(clauses: Node[], from: number): Node | undefined {
  for (let i = from; i < clauses.length; i++) {
    const statements = (clauses[i] as any).getStatements() as Node[];
    if (!statements.length) continue;
    let first = statements[0]!;
    if (Node.isBlock(first)) first = first.getStatements()[0]!;
    const e = first && Node.isReturnStatement(first) ? first.getExpression() : undefined;
    const lit = e && unwrapExpression(e);
    return lit && Node.isObjectLiteralExpression(lit) ? lit : undefined;
  }
  return undefined;
}

/** The descriptor literal this call of a switch builder reaches, when its action is a literal. */
export function chosenCase(builder: Node, call: Node, returns: Node[]): Node | undefined {
  const sw = actionSwitch(builder, returns);
  const arg = sw && Node.isCallExpression(call) ? call.getArguments()[sw.index] : undefined;
  const action = arg && literalText(unwrapExpression(arg));
  if (!sw || action === undefined) return undefined;
  let at = sw.clauses.findIndex((c) => Node.isCaseClause(c) && literalText(unwrapExpression(c.getExpression())) === action);
  if (at < 0) at = sw.clauses.findIndex((c) => Node.isDefaultClause(c));
  return at < 0 ? undefined : returnedBy(sw.clauses, at);
}

/** Whether every call of the builder in the run gives its action as a literal reaching a case (none may reach any case). */
export function everyCaseKnown(builder: Node, returns: Node[]): boolean {
  const callers = builderCallers(builder);
  return !!callers?.length && callers.every((c) => !!chosenCase(builder, c, returns));
}

/** The calls of a builder that build this descriptor: for a switch builder, those reaching the same case. */
export function sameCaseCalls(builder: Node, call: Node, returns: Node[]): Node[] | undefined {
  const callers = builderCallers(builder);
  if (!callers || returns.length < 2) return callers;
  const mine = chosenCase(builder, call, returns);
  return callers.filter((c) => chosenCase(builder, c, returns) === mine);
}
