// The GPU type ids a v1 client can name: the enum of the v1 document's Endpoint.gpuTypeIds. The
// gateway tells a v2 GPU pool to v1 clients as these types only, so a v1 endpoint record stays
// valid against the v1 document when v2's catalog knows types v1 never listed.
export function v1GpuTypeIds(v1Document: unknown): ReadonlySet<string> | undefined {
  const schemas = (v1Document as { components?: { schemas?: Record<string, any> } } | null)?.components?.schemas;
  const ids = schemas?.Endpoint?.properties?.gpuTypeIds?.items?.enum;
  return Array.isArray(ids) && ids.length ? new Set(ids.filter((id): id is string => typeof id === "string")) : undefined;
}
