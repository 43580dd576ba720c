// The audit JSON (`v2-bridge audit --format json`): written by the codemod, read by the report and
// by the gateway's live page. This schema is its one definition: the TypeScript types are derived
// from it (codemod/types.ts `Finding`, report/types.ts `Audit`) and readers validate against it.
// Open for extra properties (a producer may add fields; readers ignore them), strict on the rest.
import { Type, type Static } from "@sinclair/typebox";
import { count, isoTime, stringEnum } from "./common.ts";
import { CATEGORIES, HTTP_METHODS, SUBJECTS } from "./audit-values.ts";

export { CATEGORIES, HTTP_METHODS, SUBJECTS };
export const Category = stringEnum(CATEGORIES);
export type Category = Static<typeof Category>;

export const Subject = stringEnum(SUBJECTS);
export type Subject = Static<typeof Subject>;

export const Route = Type.Object({ method: stringEnum(HTTP_METHODS), path: Type.String() });
export type Route = Static<typeof Route>;

export const AuditFinding = Type.Object({
  /** Path relative to the audit's root. */
  file: Type.String({ minLength: 1 }),
  line: Type.Integer({ minimum: 1 }),
  column: Type.Integer({ minimum: 0 }),
  /** Mapping key (e.g. `StartPod`), or null when only the base URL is known. */
  operation: Type.Union([Type.String(), Type.Null()]),
  v1: Type.Union([Route, Type.Null()]),
  v2: Type.Union([Route, Type.Null()]),
  category: Category,
  reason: Type.String(),
  advice: Type.String(),
  snippet: Type.String(),
  /** Absent where an operation is named, and in audits from before it was recorded. */
  subject: Type.Optional(Subject),
  /**
   * Every problem of a marked site, each with its advice, in the order its mark gives them (the
   * mark names the first one briefly). Absent where `reason` and `advice` are the finding's one
   * problem as it is, for a mark read back without its details, and in audits from before it was recorded.
   */
  problems: Type.Optional(Type.Array(Type.Object({ reason: Type.String(), advice: Type.String() }))),
});
export type AuditFinding = Static<typeof AuditFinding>;

export const Audit = Type.Object(
  {
    tool: Type.Literal("v2-bridge"),
    /** Version of this format (not of the tool). */
    version: Type.Literal(1),
    /** The v2-bridge release that wrote it; absent in files from before it was recorded. */
    toolVersion: Type.Optional(Type.String()),
    generatedAt: isoTime,
    root: Type.String(),
    summary: Type.Object({
      files: count,
      filesWithFindings: count,
      findings: count,
      byCategory: Type.Object({ auto: count, review: count, "no-equivalent": count }),
    }),
    findings: Type.Array(AuditFinding),
  },
  { $id: "v2-bridge/audit.json", title: "v2-bridge static audit" },
);
export type Audit = Static<typeof Audit>;
