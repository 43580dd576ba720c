// Names of dropped v1 inputs as the usage stores keep them: unknown field names are the client's
// choice, so each is cut to a bounded length and a request counts each name once.
const MAX_FIELD_NAME = 64;
// Above the table's largest set of lost answer fields (a GPU pod lacks 33), so each is counted.
const MAX_NAMES_PER_REQUEST = 64;

export function boundedDrops(dropped: readonly string[]): readonly string[] {
  // The usual case (a few short, distinct names) as given: no copies per request.
  if (dropped.length <= MAX_NAMES_PER_REQUEST && dropped.every((f, i) => f.length <= MAX_FIELD_NAME && dropped.indexOf(f) === i)) return dropped;
  return [...new Set(dropped.map((f) => f.slice(0, MAX_FIELD_NAME)))].slice(0, MAX_NAMES_PER_REQUEST);
}
