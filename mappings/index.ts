// Public surface of the mapping table.
export * from "./types.ts";
export { operations, matchV1, v1MethodsFor, operationByKey, v2PathFor } from "./table.ts";
export { v2Successes } from "./statuses.ts";
export { lenses, lensNamed } from "./data/lenses/index.ts";
export { converters, converterNamed } from "./data/converters.ts";
export { versionChanges } from "./data/changes.ts";
export { V1_HOST, V1_BASE, V2_ORIGIN, V2_BASE, V2_OPENAPI_URL, V1_RETIREMENT } from "./bases.ts";
export { emulations, emulationNamed } from "./data/emulations.ts";
export { toV2, toV1, applicableV1Defaults, knownV1Fields, withV1Defaults } from "./lens-engine.ts";
export { problemToV1Message, isProblem, errorFieldMap, v1ErrorFields } from "./errors.ts";
export { exportTable } from "./export.ts";
export { v1NameForV2Pointer } from "./error-names.ts";
export { renderMarkdown } from "./markdown.ts";
export { absentQueryDiffers, isHarmlessQuery } from "./query-values.ts";
export { clientAnswer, answersUndocumentedRecord } from "./client-answer.ts";
