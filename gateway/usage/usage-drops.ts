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

/**
 * Whether `boundedDrops([...dropped, ...list])` is that joined list as given, for a `list` that never
 * changes (the lost answer fields of lost-fields.ts: its names are checked once).
 */
export function appendsUncut(dropped: readonly string[], list: readonly string[]): boolean {
  if (dropped.length + list.length > MAX_NAMES_PER_REQUEST) return false;
  let names = listNames.get(list);
  if (names === undefined) {
    names = boundedDrops(list) === list ? new Set(list) : null;
    listNames.set(list, names);
  }
  if (!names) return false;
  for (let i = 0; i < dropped.length; i++) {
    const f = dropped[i]!;
    if (f.length > MAX_FIELD_NAME || names.has(f) || dropped.indexOf(f) !== i) return false;
  }
  return true;
}

const listNames = new WeakMap<readonly string[], ReadonlySet<string> | null>();
