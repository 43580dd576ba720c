// The vocabulary of the mapping table. Everything v1→v2 is data of these shapes, read by
// the gateway, the codemod, the audit and the docs generator alike.

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** How a v1 operation survives in v2. */
export type MappingStatus = "mapped" | "emulated" | "no-equivalent";

/** What to do with a v1 input (field, value, query parameter) that v2 cannot express faithfully. */
export type Decision =
  | "reject" // answer a v1-format 400 naming the input and the advice
  | "drop-with-warning" // forward without it and say so in the V2-Bridge-Warning header / report
  | "emulate"; // the gateway does extra work to keep v1 semantics (see `emulations`)

/** Catalog facts some converters need (GPU type ⇄ pool); the gateway supplies them per request. */
export interface CatalogView {
  /** GPU type id → pool id. */
  poolOfGpuType(id: string): string | undefined;
  /** Pool id → GPU type ids in catalog order. */
  gpuTypesInPool(pool: string): string[];
  /** List price per hour of a pod's compute, when the catalog knows it (GPU type × count by cloud, or CPU flavour × vCPUs). */
  hourlyRate?(query: HourlyRateQuery): number | undefined;
  /** A GPU type's catalog row (GET /v2/catalog/gpus): its display name and per-GPU list prices by cloud. */
  gpuType?(id: string): CatalogGpuType | undefined;
}

export interface CatalogGpuType {
  name?: string;
  price?: { secure?: number; community?: number };
}

export interface HourlyRateQuery {
  gpu?: { id: string; count?: number } | null;
  cpu?: { id: string; vcpuCount?: number } | null;
  cloud: "SECURE" | "COMMUNITY";
}

export interface ConvertContext {
  catalog?: CatalogView;
  /**
   * Set by the lens engine: a converter that drops an input v2 cannot take says so here
   * (V2-Bridge-Warning), naming the v1 field it drops (counted in usage, refused under --strict).
   */
  warn?: (message: string, droppedField?: string) => void;
  /** GPU type ids v1 clients can name (the v1 document's enum), when known: pools are told to v1 as these only. */
  v1GpuTypeIds?: ReadonlySet<string>;
}

/** A v1 default that v1 applied but v2 would refuse in one case (e.g. a pod volume on a CPU pod). */
export interface V1DefaultException {
  /** The v1 field whose default is not applied. */
  field: string;
  /** When every one of these v1 fields (after the other defaults) has this value. */
  when: Record<string, unknown>;
  reason: string;
}

/** A converter's v1 input as the codemod sees it: an expression in the client's source. */
export interface SourceInput {
  /** The expression's source text. */
  source: string;
  /**
   * Its value when known statically: a literal, or an expression of one literal type
   * (`"QUEUE_DELAY" as const`). With `optional`, the value is this or undefined.
   */
  known?: { value: unknown };
  /** The values it can have, when its type lists them (`"QUEUE_DELAY" | "REQUEST_COUNT"`); with `optional`, or undefined. */
  oneOf?: unknown[];
  /** True when it may be undefined or null at run time (untyped, declared optional or nullable): the form must then give what toV2 gives for those. */
  optional: boolean;
  /** A list known to have an entry wherever its value comes from (every caller passes `[…]` with one), its entries not known. */
  nonEmpty?: boolean;
  /** A list known to have exactly one entry (every caller writes `[x]`), its entry not known. */
  oneEntry?: boolean;
}

/**
 * What a converter reads a v1 input as: a JSON type, or one of a list of strings (an enum). A
 * value of another kind is one v1 refused: the gateway answers 400, the codemod marks it.
 */
export type V1Kind = "boolean" | "integer" | "string" | "string[]" | readonly string[];

/**
 * A named, two-way value converter. `v1` and `v2` are tuples because some v1 fields
 * combine into one v2 field (scalerType + scalerValue → scaling) and vice versa.
 * Absent values are `undefined` in the tuple; converters return `undefined` to omit.
 */
export interface Converter {
  name: string;
  /** One documentation line. */
  summary: string;
  /** True when toV1(toV2(x)) deep-equals x for every valid v1 input (checked by property tests). */
  lossless: boolean;
  /** True when the conversion needs the live catalog (codemod cannot do it statically). */
  needsCatalog?: boolean;
  /**
   * With needsCatalog: the v1 outputs (by index) that need it. The others have a `codemodToV1`
   * form (it gives undefined for these), so the adapter can write a record without them.
   */
  catalogOutputs?: number[];
  /** Each v1 input's kind (checked against the v1 document by test/mappings/codemod-differential); `null` is read too where listed. */
  accepts?: { kind: V1Kind; nullable?: boolean }[];
  toV2(v1: unknown[], ctx: ConvertContext): unknown[];
  toV1(v2: unknown[], ctx: ConvertContext): unknown[];
  /**
   * How the codemod writes the forward conversion in source, given each v1 input as written
   * (`undefined` when the field is absent). Returns the v2 expressions' source text, or null when
   * it cannot be expressed safely (the codemod then leaves a TODO mark). Evaluated with the
   * inputs' run-time values, the text must give what `toV2` gives for them (as the gateway calls
   * it: not at all when every input is undefined); test/mappings/codemod-differential.test.ts
   * checks this over generated inputs. When every input is a literal the codemod evaluates toV2 itself.
   * It throws, with a reason for the mark, where toV2 refuses the inputs (or may, for their run-time values).
   */
  codemod: ((v1: (SourceInput | undefined)[]) => (string | undefined)[] | null) | null;
  /** Why the codemod cannot express it, when `codemod` is null. */
  codemodReason?: string;
  /**
   * The backward conversion in source, as `codemod` is the forward one: given the source text of
   * each v2 expression (`undefined` when absent), the v1 expressions' source text, or null. The
   * boundary adapter (codemod/adapter/) writes record lenses through it; without one, a record
   * lens using this converter is left out of the adapter and its sites stay marked. A present
   * input is defined at run time (the adapter writes one branch per combination of present inputs);
   * the text must give what `toV1` gives for any such values, and may call the adapter's
   * `splitWords` (test/mappings/codemod-to-v1.test.ts checks both).
   */
  codemodToV1?: (v2Source: (string | undefined)[]) => (string | undefined)[] | null;
  /**
   * When a conversion the codemod can write still drops meaning (e.g. a priority list of which
   * v2 keeps only the first entry): the reason to show in a TODO mark, or null when the input is
   * faithfully converted. Gets each v1 input's source text and, for literal inputs, its value.
   */
  codemodReview?: (v1Source: (string | undefined)[], v1Literal: unknown[]) => string | null;
}

/**
 * A lens between v1 and v2 field paths (dotted; numeric segments index arrays:
 * `mounts.network.0.volumeId`). Without a converter the values are copied as-is.
 */
export interface FieldLens {
  v1: string[];
  v2: string[];
  converter?: string;
  /**
   * For a converter that builds nested v2 values from several v1 fields: which v1 field each v2
   * sub-path comes from (`"gpu.id": "gpuTypeIds"`), so v2 validation errors can name v1 fields.
   */
  parts?: Record<string, string>;
  /** Direction(s) in which this lens applies; default both. */
  only?: "toV2" | "toV1";
  note?: string;
}

/** A v1 field with no faithful v2 form, and what happens to it. */
export interface UnmappedField {
  v1: string;
  decision: Decision;
  /** Only act when the value differs from this (e.g. `interruptible: false` is harmless). */
  harmlessValue?: unknown;
  reason: string;
  advice: string;
}

/** A v2 field v1 never had; listed so reviewers see nothing is forgotten on the way back. */
export interface V2OnlyField {
  v2: string;
  note: string;
}

export interface BodyLens {
  name: string;
  /** Component schema names in the published documents (checked by tests). */
  v1Schema: string;
  v2Schema: string;
  fields: FieldLens[];
  unmapped?: UnmappedField[];
  /** v1's documented defaults, applied before translation when v1 would have applied them. */
  v1Defaults?: Record<string, unknown>;
  /** Skip v1Defaults when this v1 field is set (a template supplies the values instead). */
  v1DefaultsUnless?: string;
  /** Defaults of v1Defaults applied even when v1DefaultsUnless is set (a template supplies no such value). */
  v1DefaultsAlways?: string[];
  /** Defaults of v1Defaults left out in a case where v2 would reject them. */
  v1DefaultsExcept?: V1DefaultException[];
  /** v2 fields that v2 requires and v1 never sent, with the value that keeps v1 semantics. */
  v2Defaults?: Record<string, unknown>;
  v2Only?: V2OnlyField[];
  /**
   * v1 record fields v2 cannot supply (the gateway leaves them out of translated records). `lostFor`:
   * lost only for these records (the lens fills the field for the others, as it fills a CPU pod's
   * vcpuCount), yet as lost as any for code reading it: the adapter and the codemod treat it so.
   */
  v1Lost?: { v1: string; reason: string; advice: string; lostFor?: string }[];
  /**
   * v1 record fields v1 itself gave only some records (a CPU pod's cpuFlavorId): absent from the
   * `records` named here as in v1, which is no loss (test/mappings/record-fields-every-shape.test.ts).
   */
  v1AbsentFor?: { v1: string; records: string; note: string }[];
  /** v1 record fields a gateway emulation fills from other v2 calls (named by emulation). */
  v1FromEmulation?: { v1: string; emulation: string }[];
  /** v1 record fields that v1 servers returned and clients read, though the v1 document omits them. */
  v1Undocumented?: { v1: string; note: string }[];
}

/** A v1 query value as it is sent (`false`, `podId`): the literal forms code writes it in are compared as this text. */
export type QueryValue = string;

/**
 * Values of a v1 query parameter that ask for what v2 does anyway, so a request without the
 * parameter means the same on v2: the codemod drops it where it is written (no mark), the gateway
 * without a warning. Only what the v2 document says (`reason` quotes it).
 */
export interface HarmlessQueryValues {
  values: readonly [QueryValue, ...QueryValue[]];
  /** Why v2 already behaves so. */
  reason: string;
}

/**
 * A v1 query parameter and its fate: forwarded (under its v2 name), or a decision for one v2 does
 * not take. Harmless values exist only for the latter (the compiler keeps them there).
 */
export type QueryMapping = ForwardedQuery | DecidedQuery;

interface QueryMappingBase {
  v1: string;
  reason?: string;
  advice?: string;
}

export interface ForwardedQuery extends QueryMappingBase {
  /** v2 query parameter name. */
  v2: string;
  decision?: undefined;
  filterField?: undefined;
  expands?: undefined;
  expandsUndeclared?: undefined;
  harmless?: undefined;
  v1Default?: undefined;
}

export interface DecidedQuery extends QueryMappingBase {
  v2?: undefined;
  decision: Decision;
  /** For emulated filters: the v1 record field the value is compared with. */
  filterField?: string;
  /**
   * For include expansions: the v1 record field the expansion fills (`machine`). Where a client's
   * code reads every field of the answer in sight and none is this one, the codemod drops the
   * parameter instead of marking it.
   */
  expands?: string;
  /**
   * An include expansion that fills a record field the v1 document does not name (a pod's
   * `includeTemplate`): which field a client reads for it is unknown, so the codemod drops the
   * parameter only where every read of the answer in sight is a field the record's lens knows
   * (none, for an answer only compared with null).
   */
  expandsUndeclared?: true;
  /** Values that need nothing in v2: a request without the parameter means the same there. */
  harmless?: HarmlessQueryValues;
  /**
   * v1's documented default, given where a request that leaves the parameter out gets another
   * answer from v2 (a list with other records): `reason` says what v2 does instead.
   */
  v1Default?: V1QueryDefault;
}

/** What v1 did for a request without the parameter, and why v2's answer to it differs. */
export interface V1QueryDefault {
  value: QueryValue;
  reason: string;
  advice: string;
}

export type ResponseShape =
  | { kind: "record"; lens: string }
  | { kind: "list"; wrapper: string; lens: string }
  | { kind: "empty" }
  | { kind: "document" }
  | { kind: "html" };

export interface OperationMapping {
  /** Unique key: the v1 operationId, plus `#suffix` for synonyms sharing it. */
  key: string;
  summary: string;
  v1: {
    operationId: string;
    method: HttpMethod;
    /** Exactly as written in v1-openapi.json. */
    path: string;
    /** Success status v1 documented. */
    status: number;
  };
  v2: {
    operationId: string;
    method: HttpMethod;
    path: string;
    /**
     * Success status v2 answers this operation's request (v2-openapi.json); several where it may
     * answer any of them. The gateway answers v1 clients with `v1.status`; a migrated client's
     * status checks are rewritten to this one (each of them).
     */
    status: number | readonly number[];
  } | null;
  status: MappingStatus;
  /** v1 path parameter → v2 path parameter. */
  pathParams?: Record<string, string>;
  query?: QueryMapping[];
  request?: {
    lens?: string;
    /** Fixed v2 body, e.g. `{ action: "start" }` for lifecycle paths. */
    fixedBody?: Record<string, unknown>;
  };
  response: ResponseShape;
  /**
   * The record v2 answers where v1 documents no content (`podAction` answers the updated pod):
   * client code that reads the v1 answer anyway reads it as this record (the codemod follows those
   * reads). The gateway still answers as `response` says (the v1 document).
   */
  v2AnswerRecord?: BodyLens;
  /** Gateway emulations (by name, see mappings/data/emulations.ts) that keep v1 semantics. */
  emulations?: string[];
  /** For `no-equivalent`, and for emulations with an opt-out: what happens and what to do. */
  decision?: {
    policy: Decision;
    /** v1-format error status when rejecting. */
    errorStatus?: number;
    message: string;
    advice: string;
  };
  /** Named version changes (mappings/data/changes.ts) that touch this operation: computed from the entry. */
  changes: string[];
}

/** An operation as written in the table; `changes` is computed (mappings/data/changes.ts). */
export type OperationEntry = Omit<OperationMapping, "changes">;

/** An emulation the gateway performs where v2 needs more than one call or a lookup. */
export interface EmulationSpec {
  name: string;
  summary: string;
  /** Where the emulation differs from v1 behaviour. */
  differences: string;
  /** Extra upstream calls it may make. */
  upstreamCalls: string[];
}
