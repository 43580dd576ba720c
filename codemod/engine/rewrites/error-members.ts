// Both v1 error fields (`message`, `error`) become v2's one `detail`, so a type declaring both
// (`{ message?: string; error?: string }`) would declare `detail` twice if each were renamed: the
// first of the family keeps the name (`detail`), the others are removed. Each read makes the same
// choice for the same type, so the edits of two reads are identical and collapse.
import { Node, SyntaxKind } from "../../ts-morph.ts";
import { errorFieldMap } from "../../../mappings/index.ts";

type Put = (n: Node, text: string, start?: number, end?: number) => void;

/** Renames the declared field whose name is `name` to `to`, or removes it where an earlier field of the type already becomes `to`. */
export function renameErrorMember(name: Node, to: string, put: Put): void {
  const member = name.getParent();
  const owner = member?.getParent();
  const members: Node[] | undefined = owner && (Node.isTypeLiteral(owner) || Node.isInterfaceDeclaration(owner)) ? owner.getMembers() : undefined;
  if (!member || !members) return put(name, to);
  const family = members.filter((m) => becomes(m, to));
  const first = family[0];
  if (!first || first === member || !family.includes(member)) return put(name, to);
  put((first as any).getNameNode(), to);
  const i = members.indexOf(member);
  const prev = members[i - 1];
  const next = members[i + 1];
  if (prev) put(member, "", prev.getEnd(), member.getEnd());
  else if (next) put(member, "", member.getStart(), next.getStart());
  else put(member, "", member.getStart(), member.getEnd());
}

/**
 * Where a type declaring the v1 field `decl` gets the v2 field `to` beside it: after the first field
 * of the family (`{ error?: string; message?: string }` gets one `detail`, written the same for
 * each read so the edits collapse), or nowhere when the type declares `to` already.
 */
export function widenedAfter(decl: Node, to: string): Node | undefined {
  const owner = decl.getParent();
  const members: Node[] | undefined = owner && (Node.isTypeLiteral(owner) || Node.isInterfaceDeclaration(owner)) ? owner.getMembers() : undefined;
  if (!members) return decl;
  if (members.some((m) => Node.isPropertySignature(m) && memberName(m) === to)) return undefined;
  return members.find((m) => becomes(m, to)) ?? decl;
}

function memberName(m: Node & { getNameNode(): Node }): string | undefined {
  const key = m.getNameNode();
  return key.getKind() === SyntaxKind.Identifier ? key.getText() : Node.isStringLiteral(key) ? key.getLiteralValue() : undefined;
}

/** A property member named `to`, or a v1 error field mapped to it. */
function becomes(m: Node, to: string): boolean {
  if (!Node.isPropertySignature(m)) return false;
  const name = memberName(m);
  return name === to || ((name === "message" || name === "error") && errorFieldMap[name] === to);
}
