// Dotted-path access for lenses: `mounts.network.0.volumeId` (numeric segments index arrays).

export function getPath(target: unknown, path: string): unknown {
  let node: any = target;
  for (const segment of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[segment];
  }
  return node;
}

/** Sets a value, creating objects/arrays on the way; `undefined` leaves the target untouched. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  if (value === undefined) return;
  const segments = path.split(".");
  let node: any = target;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    if (node[segment] === undefined || node[segment] === null || typeof node[segment] !== "object") {
      node[segment] = /^\d+$/.test(segments[i + 1]!) ? [] : {};
    }
    node = node[segment];
  }
  node[segments[segments.length - 1]!] = value;
}

export function hasPath(target: unknown, path: string): boolean {
  return getPath(target, path) !== undefined;
}
