// Whether a property name can be declared inside a class of the program. classOfMember asks the
// checker for the symbol of every `obj.name` a call's callee or receiver reads (`res.json`,
// `arr.map`, `console.log`) to find a class declaring it; on the monorepo bench no class of the
// run declares any of them and each answer is a type check for nothing. A declaration inside a
// class lies in the class's text, its name written there, unless computed (`[KEY]() {}`,
// `this[key] = …`) or escaped (`\u0078`): a program with such a class is always asked.
import { ts, type Node, type TypeScript } from "../ts-morph.ts";

type Names = { anyName: boolean; texts: string[]; seen: Map<string, boolean> };
const byProgram = new WeakMap<TypeScript.Program, Names>();

/** False only when no class of the node's program can declare `name` (the checker need not be asked). */
export function classMayDeclare(node: Node, name: string): boolean {
  const program = node.getProject().getProgram().compilerObject;
  let names = byProgram.get(program);
  if (!names) byProgram.set(program, (names = classTexts(program)));
  if (names.anyName) return true;
  let may = names.seen.get(name);
  if (may === undefined) names.seen.set(name, (may = names.texts.some((t) => t.includes(name))));
  return may;
}

function classTexts(program: TypeScript.Program): Names {
  const names: Names = { anyName: false, texts: [], seen: new Map() };
  for (const sf of program.getSourceFiles()) {
    if (!sf.text.includes("class")) continue;
    const visit = (n: TypeScript.Node): void => {
      if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) {
        const text = sf.text.slice(n.pos, n.end); // with its leading comments (JSDoc tags declare too)
        names.texts.push(text);
        if (text.includes("\\u") || computesNames(n)) names.anyName = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (names.anyName) break;
  }
  return names;
}

/** A name inside the class the text does not spell: `[KEY]: …`, `this[key] = …`. */
function computesNames(cls: TypeScript.Node): boolean {
  let found = false;
  const visit = (n: TypeScript.Node): void => {
    if (found) return;
    if (ts.isComputedPropertyName(n) || (ts.isElementAccessExpression(n) && !ts.isStringLiteralLike(n.argumentExpression) && !ts.isNumericLiteral(n.argumentExpression))) found = true;
    else ts.forEachChild(n, visit);
  };
  ts.forEachChild(cls, visit);
  return found;
}
