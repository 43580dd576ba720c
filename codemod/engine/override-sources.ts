// What takes precedence over a followed base (`process.env.X ?? file.apiUrl ?? DEFAULTS.apiUrl`),
// described operand by operand: an environment read by its variable's name, a key of a parsed
// JSON file (a user's config file) by its key and where the file is read, anything else by its text.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Evaluator } from "./evaluate/evaluator.ts";
import { optionsOf } from "./evaluate/value.ts";
import { unwrapExpression } from "./urls.ts";

/** What a description of a configuration file's setting says (base-verdict.ts words its mark for deployments). */
export const FILE_SETTING = " in the JSON file read at ";

export function overrideSources(ev: Evaluator, left: Node): string[] {
  const envs = (n: Node) => {
    const options = optionsOf(ev.evaluate(n));
    return options.length && options.every((o) => o.kind === "env") ? options.map((o) => `the environment variable ${(o as { name: string }).name}`) : undefined;
  };
  const operands = chainOperands(left);
  const files = operands.map((o) => fileSetting(ev, o));
  // Without a file's setting among them, the whole expression is one override (its text), as before.
  if (!files.some(Boolean)) return envs(left) ?? [left.getText().replace(/\s+/g, " ")];
  return [...new Set(operands.flatMap((o, i) => files[i] ?? envs(o) ?? [o.getText().replace(/\s+/g, " ")]))];
}

/** `a ?? b ?? c` (or `||`): a, b and c. */
function chainOperands(n: Node): Node[] {
  const u = unwrapExpression(n);
  if (Node.isBinaryExpression(u) && [SyntaxKind.QuestionQuestionToken, SyntaxKind.BarBarToken].includes(u.getOperatorToken().getKind())) return [...chainOperands(u.getLeft()), ...chainOperands(u.getRight())];
  return [u];
}

/** `file.apiUrl` where `file` holds `JSON.parse(…)`: a setting of that file, named by key and where it is read. */
function fileSetting(ev: Evaluator, operand: Node): string | undefined {
  if (!Node.isPropertyAccessExpression(operand)) return undefined;
  const parse = optionsOf(ev.evaluate(operand.getExpression()))
    .map((o) => (o.kind === "made" ? o.call : undefined))
    .find((c): c is Node => !!c && Node.isCallExpression(c) && c.getExpression().getText().replace(/\s/g, "") === "JSON.parse");
  if (!parse) return undefined;
  const sf = parse.getSourceFile();
  return `"${operand.getName()}"${FILE_SETTING}${sf.getBaseName()}:${sf.getLineAndColumnAtPos(parse.getStart()).line}`;
}
