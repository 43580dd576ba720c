// Every intermediate state runs: a call the codemod marks instead of migrating is left whole (v1
// base, v1 path, v1 body), and its base becomes a name of its own, `RUNPOD_V1_BASE`, read from the
// environment, which the user points at the v2-bridge gateway. Migrated calls of the same client
// use the v2 base; each human fix moves one call across.
import { Node, SyntaxKind } from "../ts-morph.ts";
import type { Edit } from "../types.ts";
import { escapeFor, unwrapExpression, type LocatedUrl, type Part } from "./urls.ts";
import { V1_HOST, V2_ORIGIN } from "../../mappings/bases.ts";
import { enclosingFunction } from "./scope.ts";
import { valueKind } from "./nodes.ts";
import { insertAt, replaceNode, textEdit } from "./text-edit.ts";
import { fallbackRead, type BaseEnv } from "./env-convention.ts";

export const V1_BASE_NAME = "RUNPOD_V1_BASE";
export const V1_ORIGIN_NAME = "RUNPOD_V1_ORIGIN";
const V1_BASE_VALUE = `https://${V1_HOST}/v1`;
const V1_ORIGIN_VALUE = `https://${V1_HOST}`;

/** The edits that move a marked call onto the declared v1 base, and the names it needs. */
export interface Redirect {
  edits: Edit[];
  names: string[];
  /** Edits shared by every redirected call of one helper (its new base parameter), applied once. */
  shared?: { key: string; edits: Edit[]; names?: string[] };
  /** Shared edits of the helpers a helper hands its base on to (threaded-base.ts), each applied once. */
  inner?: { key: string; edits: Edit[]; names?: string[] }[];
  /**
   * Where the base is computed elsewhere and something at run time can override it (an environment
   * variable, a caller's option): the call keeps what its base evaluates to, moved back from v2.
   */
  derived?: { edits: Edit[]; names: string[] };
  /** A base given in the request's own options, in place of the one the client was made with. */
  perRequest?: boolean;
  /** In place of a per-request base, where the client's callers set its base: the v1 counterpart of the client's own (ky-derived-base.ts). */
  callerSet?: { edits: Edit[]; names: string[] };
}

/** The function a base its package's users can set goes through where the default flips (caller-set-base.ts). */
export const V2_DERIVE_NAME = "runpodV2Base";

/** The function a kept call's computed base goes through (declared once in its file). */
export const V1_DERIVE_NAME = "runpodV1Base";

/**
 * A marked call whose base expression at the site (`apiBase(env)`) is computed in another function
 * that flips with the calls that migrate: the site's expression is replaced, not the producer's.
 * Plain: `RUNPOD_V1_BASE`. Derived (used when the base can be overridden at run time): the value
 * the producer gives, moved back to v1 (`runpodV1Base(apiBase(env))`), so a deployment's own v1
 * base (a gateway's /v1) still holds and the flipped default goes back to `RUNPOD_V1_BASE`.
 */
export function siteBaseRedirect(node: Node, value: string): Redirect | undefined {
  const target = nameFor(value);
  if (!target || target.name !== V1_BASE_NAME) return undefined;
  const plain = replaceNode(node, target.slash ? `(${target.name} + "/")` : target.name);
  return { edits: [plain], names: [target.name], derived: { edits: [replaceNode(node, `${V1_DERIVE_NAME}(${node.getText()})`)], names: [V1_BASE_NAME, V1_DERIVE_NAME] } };
}

/** Whether a call is a kept call's derived base (`runpodV1Base(…)`, written by an earlier run). */
export function isDerivedV1Base(node: Node): boolean {
  return Node.isCallExpression(node) && node.getExpression().getText() === V1_DERIVE_NAME && node.getArguments().length === 1;
}

/** The name (and any suffix) that stands for a v1 base value. */
export function nameFor(value: string): { name: string; slash: boolean } | undefined {
  const m = /^(?:https?:)?\/\/[^/]+(\/v1)?(\/)?$/.exec(value);
  if (!m) return undefined;
  return { name: m[1] ? V1_BASE_NAME : V1_ORIGIN_NAME, slash: !!m[2] };
}

/**
 * How to keep this call on the declared v1 base: replace the base expression in its own URL
 * (`${BASE}/pods` → `${RUNPOD_V1_BASE}/pods`) or the inline base of its literal. Undefined when
 * the base is not in the call's own URL (an instance's `baseURL`, a helper's base, a URL another
 * function builds): such a base cannot flip while the call stays v1. The URL must be written in
 * the function that makes the call: one a URL builder returns serves its other callers too.
 */
export function v1Redirect(url: LocatedUrl, parts: Part[], at: Node): Redirect | undefined {
  const first = parts[0];
  if (!first || !inFunctionOf(first.node, at)) return undefined;
  if (url.anchor) {
    if (first.kind !== "base" || first.node !== url.anchor.node) return undefined;
    const target = nameFor(url.anchor.value);
    if (!target) return undefined;
    const node = first.node;
    if (Node.isIdentifier(node) && node.getText() === target.name && !target.slash) return { edits: [], names: [target.name] };
    if (isDerivedV1Base(node)) return { edits: [], names: [V1_BASE_NAME, V1_DERIVE_NAME] };
    return { edits: [replaceNode(node, target.slash ? `(${target.name} + "/")` : target.name)], names: [target.name] };
  }
  if (!url.inlineBase || first.kind !== "text" || !first.text.startsWith(url.inlineBase)) return undefined;
  const target = nameFor(url.inlineBase);
  if (!target) return undefined;
  const node = first.node;
  const rest = first.text.slice(url.inlineBase.length);
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) {
    return { edits: [replaceNode(node, `\`\${${target.name}}${escapeFor(rest, true)}\``)], names: [target.name] };
  }
  if (node.getKind() === SyntaxKind.TemplateHead) {
    const start = node.getStart() + 1;
    const raw = node.getText().slice(1, -2);
    if (!raw.startsWith(url.inlineBase)) return undefined;
    return { edits: [textEdit(node, start, start + url.inlineBase.length, `\${${target.name}}`)], names: [target.name] };
  }
  return undefined;
}

/** Whether `node` is written in the same file and function as `at` (module level counts as one). */
function inFunctionOf(node: Node, at: Node): boolean {
  return node.getSourceFile() === at.getSourceFile() && enclosingFunction(node) === enclosingFunction(at);
}

/** Whether a literal is the value of a declared v1 base (it never flips: marked calls depend on it). */
export function isDeclaredV1Base(literal: Node): boolean {
  const decl = literal.getFirstAncestorByKind(SyntaxKind.VariableDeclaration);
  return !!decl && [V1_BASE_NAME, V1_ORIGIN_NAME].includes(decl.getName());
}

/** The declaration of a v1 base name, inserted after a file's imports (once per file), read from the environment as the kept calls' bases were. */
export function declarationEdit(sf: Node & { getStatements(): Node[]; getFilePath(): string; getFullText(): string }, name: string, typescript: boolean, baseEnvs: BaseEnv[] = []): Edit | undefined {
  const text = sf.getFullText();
  if (new RegExp(`\\b(const|let|var|function)\\s+${name}\\b`).test(text)) return undefined;
  const statements = sf.getStatements();
  let at = 0;
  for (const st of statements) {
    const directive = Node.isExpressionStatement(st) && Node.isStringLiteral(st.getExpression());
    const isRequire = Node.isVariableStatement(st) && /\brequire\(/.test(st.getText()) && !st.getText().includes(V1_HOST);
    if (Node.isImportDeclaration(st) || Node.isImportEqualsDeclaration(st) || directive || isRequire) at = st.getEnd();
    else break;
  }
  if (at === 0 && text.startsWith("#!")) at = text.indexOf("\n") + 1;
  const afterStatement = at > 0 && !text.slice(0, at).endsWith("\n");
  if (name === V1_DERIVE_NAME || name === V2_DERIVE_NAME) {
    const line = name === V1_DERIVE_NAME ? deriveFunction(typescript) : deriveV2Function(typescript);
    return insertAt(sf, at, afterStatement ? `\n${line.slice(0, -1)}` : line);
  }
  const value = name === V1_BASE_NAME ? V1_BASE_VALUE : V1_ORIGIN_VALUE;
  // Read the way the kept calls' own base was (env-convention.ts).
  const env = fallbackRead(name, baseEnvs, text, typescript, sf.getFilePath());
  const where = name === V1_BASE_NAME ? "its /v1" : "its root";
  const line = `${env.prelude ?? ""}// Calls still in v1 shape (each with a v2-migration mark) use this base: point ${env.variable} at the v2-bridge gateway (${where}).\nconst ${name} = ${env.read} ${env.op} "${value}";\n`;
  return insertAt(sf, at, afterStatement ? `\n${line.slice(0, -1)}` : line);
}

/**
 * The kept calls' base, from the base their client now has: a v2 base goes back to v1 (the public
 * one to RUNPOD_V1_BASE, another host's /v2 to its /v1); a base set to v1 by a deployment is kept.
 */
function deriveFunction(typescript: boolean): string {
  const t = (s: string) => (typescript ? s : "");
  return [
    `// Calls still in v1 shape whose base can be set at run time: the v1 counterpart of what it is set to.`,
    `function ${V1_DERIVE_NAME}(base${t(": string")})${t(": string")} {`,
    `  const m = /^(.*)\\/v2(\\/?)$/.exec(base);`,
    `  if (!m) return base;`,
    `  return m[1] === "${V2_ORIGIN}" ? ${V1_BASE_NAME} + m[2] : \`\${m[1]}/v1\${m[2]}\`;`,
    `}`,
    ``,
  ].join("\n");
}

/** A base a caller set: a v1 one goes to its v2 counterpart (the public one to the v2 base, another host's /v1 to its /v2). */
function deriveV2Function(typescript: boolean): string {
  const t = (s: string) => (typescript ? s : "");
  return [
    `// A base its callers set, for calls now in v2 shape: a v1 base (or a v2-bridge gateway's /v1) becomes its v2 counterpart.`,
    `function ${V2_DERIVE_NAME}(base${t(": string | undefined")})${t(": string | undefined")} {`,
    `  const m = base === undefined ? null : /^(.*)\\/v1(\\/?)$/.exec(base);`,
    `  if (!m) return base;`,
    `  return /^https?:\\/\\/${V1_HOST.replace(/\./g, "\\.")}$/.test(m[1]${t("!")}) ? "${V2_ORIGIN}/v2" + m[2] : \`\${m[1]}/v2\${m[2]}\`;`,
    `}`,
    ``,
  ].join("\n");
}

/** The trailing base parameter a helper gets for its marked calls (helper-redirect.ts). */
export const HELPER_BASE_PARAM = "runpodBase";

/**
 * A marked call on an axios instance (`api.post("/pods", data)`): axios takes a base per request,
 * so the call keeps v1 with `{ baseURL: RUNPOD_V1_BASE }` in its config.
 */
export function axiosRedirect(call: Node & { getArguments(): Node[] }, verb: string | undefined, baseValue: string, config: Node | undefined): Redirect | undefined {
  const first = call.getArguments()[0];
  // `api(cfg)` with a config object: axios reads no second argument then, the base goes into the config.
  if (verb === undefined && !config && first) {
    const kind = valueKind(first);
    if (kind === "object") return optionRedirect(call, "baseURL", verb, baseValue, first);
    if (kind !== "string") return undefined;
  }
  return optionRedirect(call, "baseURL", verb, baseValue, config);
}


/** openapi-fetch: `client.GET(path, { …, baseUrl: RUNPOD_V1_BASE })` (a per-request base). */
export function openapiFetchRedirect(call: Node & { getArguments(): Node[] }, baseValue: string, init: Node | undefined): Redirect | undefined {
  return optionRedirect(call, "baseUrl", undefined, baseValue, init);
}

/**
 * ky / got: `api.post(path, { …, prefixUrl: RUNPOD_V1_BASE })` (a per-request prefix). Both add the
 * trailing slash a prefix needs themselves, so an instance's `"…/v1/"` is kept as RUNPOD_V1_BASE too.
 */
export function prefixUrlRedirect(call: Node & { getArguments(): Node[] }, baseValue: string, options: Node | undefined): Redirect | undefined {
  return optionRedirect(call, "prefixUrl", undefined, baseValue.replace(/\/$/, ""), options);
}

/** A base the call names in its own options (`{ baseURL: REST }`, REST shared with calls that migrate): that option reads the declared v1 base instead. */
export function ownOptionRedirect(value: Node, baseValue: string): Redirect | undefined {
  const target = nameFor(baseValue);
  if (!target || target.slash) return undefined;
  return { edits: [replaceNode(value, target.name)], names: [target.name] };
}

export function optionRedirect(call: Node & { getArguments(): Node[] }, key: string, verb: string | undefined, baseValue: string, config: Node | undefined): Redirect | undefined {
  const r = optionEdits(call, key, verb, baseValue, config);
  return r && { ...r, perRequest: true };
}

function optionEdits(call: Node & { getArguments(): Node[] }, key: string, verb: string | undefined, baseValue: string, config: Node | undefined): Redirect | undefined {
  const target = nameFor(baseValue);
  if (!target || target.slash) return undefined;
  const option = `${key}: ${target.name}`;
  const args = call.getArguments();
  if (config) {
    // Options built elsewhere (`const opts = { … }; $fetch(path, opts)`) may serve other calls, and
    // the call's checks do not see into a copy (`{ ...opts, baseURL }`): no base of its own then.
    if (Node.isObjectLiteralExpression(config) && !args.some((x) => unwrapExpression(x) === config)) return undefined;
    const u = config;
    if (Node.isObjectLiteralExpression(u)) {
      // A spread may carry the key (`{ method, ...runpodOpts() }`): the base goes last, so it wins.
      const last = u.getProperties().at(-1);
      if (last && u.getProperties().some((p) => Node.isSpreadAssignment(p))) return { edits: [textEdit(u, last.getEnd(), last.getEnd(), `, ${option}`)], names: [target.name] };
      const open = u.getStart() + 1;
      const empty = u.getProperties().length === 0;
      return { edits: [textEdit(u, open, empty ? u.getEnd() - 1 : open, empty ? ` ${option} ` : ` ${option},`)], names: [target.name] };
    }
    return { edits: [replaceNode(u, `{ ...${u.getText()}, ${option} }`)], names: [target.name] };
  }
  const dataVerb = verb !== undefined && ["post", "put", "patch"].includes(verb.toLowerCase());
  const want = verb === undefined ? 2 : dataVerb ? 3 : 2;
  if (args.length >= want || args.length === 0) return undefined;
  const fill = Array.from({ length: want - 1 - args.length }, () => "undefined");
  const at = args.at(-1)!.getEnd();
  return { edits: [insertAt(call, at, `, ${[...fill, `{ ${option} }`].join(", ")}`)], names: [target.name] };
}

/** `RUNPOD_V1_BASE`, or an options literal giving it under some key (`{ baseUrl: RUNPOD_V1_BASE }`). */
export function givesDeclaredV1Base(arg: Node): boolean {
  const u = unwrapExpression(arg);
  const declared = (n: Node | undefined) => !!n && Node.isIdentifier(n) && [V1_BASE_NAME, V1_ORIGIN_NAME].includes(n.getText());
  if (declared(u)) return true;
  return Node.isObjectLiteralExpression(u) && u.getProperties().some((p) => Node.isPropertyAssignment(p) && declared(unwrapExpression(p.getInitializer()!)));
}
