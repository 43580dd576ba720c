// The compiler's find-references for a name, remembered for as long as the program it was asked
// of stands. One analysis asks for the same name's references many times (every caller of a
// helper, every round of analyzeProject); each answer walks the project and builds display text
// nobody reads. The program object is the key: a file added or changed makes a new program, so
// a remembered answer is never one the compiler would now give differently.
import type { ClassDeclaration } from "ts-morph";
import { SyntaxKind, type Node, type TypeScript } from "../ts-morph.ts";
import { referencingNodes } from "./referencing-nodes.ts";

type Answer = { refs: Node[] } | { error: unknown };
const byProgram = new WeakMap<TypeScript.Program, Map<TypeScript.Node, Answer>>();

/** `node.findReferencesAsNodes()`, as ts-morph answers it (a fresh array each time; a throw is thrown again). */
export function findReferencesAsNodes(node: Node): Node[] {
  const program = languageService(node).getProgram();
  if (!program) return (node as any).findReferencesAsNodes() as Node[];
  let answers = byProgram.get(program);
  if (!answers) byProgram.set(program, (answers = new Map()));
  let answer = answers.get(node.compilerNode);
  if (!answer) {
    try {
      answer = { refs: referencingNodes(node, program) ?? ((node as any).findReferencesAsNodes() as Node[]) };
    } catch (error) {
      answer = { error };
    }
    answers.set(node.compilerNode, answer);
  }
  if ("error" in answer) throw answer.error;
  return answer.refs.slice();
}

function languageService(node: Node): TypeScript.LanguageService {
  return node.getProject().getLanguageService().compilerObject;
}

/** `cls.getDerivedClasses()` as ts-morph computes it (every class extending it, directly or not), over the remembered references. */
export function derivedClasses(cls: ClassDeclaration): ClassDeclaration[] {
  const classes = immediatelyDerived(cls);
  for (let i = 0; i < classes.length; i++) {
    for (const d of immediatelyDerived(classes[i]!)) if (d !== cls && !classes.includes(d)) classes.push(d);
  }
  return classes;
}

function immediatelyDerived(cls: ClassDeclaration): ClassDeclaration[] {
  const out: ClassDeclaration[] = [];
  const name = cls.getNameNode();
  if (!name) return out;
  for (let ref of findReferencesAsNodes(name)) {
    ref = ref.getParentWhileKind(SyntaxKind.PropertyAccessExpression) ?? ref;
    const heritage = ref.getParentIfKind(SyntaxKind.ExpressionWithTypeArguments)?.getParentIfKind(SyntaxKind.HeritageClause);
    if (!heritage || heritage.getToken() !== SyntaxKind.ExtendsKeyword) continue;
    const derived = heritage.getParentIfKind(SyntaxKind.ClassDeclaration);
    if (derived) out.push(derived);
  }
  return out;
}
