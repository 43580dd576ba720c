// Sums v1 billing records that share a key (bucket time, or time + GPU type), in first-seen order.

export function sumByKey(records: Record<string, unknown>[], keyOf: (r: Record<string, unknown>) => Record<string, unknown>, sumFields: string[]): Record<string, unknown>[] {
  const groups = new Map<string, Record<string, unknown>>();
  for (const record of records) {
    const key = keyOf(record);
    const id = JSON.stringify(key);
    let group = groups.get(id);
    if (!group) {
      group = { ...key };
      groups.set(id, group);
    }
    for (const f of sumFields) {
      if (typeof record[f] !== "number") continue;
      group[f] = Number((((group[f] as number | undefined) ?? 0) + (record[f] as number)).toFixed(6));
    }
  }
  return [...groups.values()];
}
