// Dotted-path access for lenses: `mounts.network.0.volumeId` (numeric segments index arrays).

export function getPath(target: unknown, path: string): unknown {
  return getSegments(target, path.split("."));
}

/** Sets a value, creating objects/arrays on the way; `undefined` leaves the target untouched. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  compilePath(path).set(target, value);
}

function getSegments(target: unknown, segments: string[]): unknown {
  let node: any = target;
  for (const segment of segments) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[segment];
  }
  return node;
}

/** A path split once, for code that reads or writes the same path many times (compiled lenses). */
export interface CompiledPath {
  get(target: unknown): unknown;
  set(target: Record<string, unknown>, value: unknown): void;
}

export function compilePath(path: string): CompiledPath {
  const segments = path.split(".");
  const last = segments[segments.length - 1]!;
  // For each intermediate segment: is the container created on the way an array (next segment numeric)?
  const arrayNext = segments.slice(0, -1).map((_, i) => /^\d+$/.test(segments[i + 1]!));
  if (segments.length === 1) {
    return {
      get: (target) => (target === null || typeof target !== "object" ? undefined : (target as any)[last]),
      set: (target, value) => {
        if (value !== undefined) target[last] = value;
      },
    };
  }
  return {
    get: (target) => getSegments(target, segments),
    set: (target, value) => {
      if (value === undefined) return;
      let node: any = target;
      for (let i = 0; i < arrayNext.length; i++) {
        const segment = segments[i]!;
        const next = node[segment];
        if (next === undefined || next === null || typeof next !== "object") node[segment] = arrayNext[i] ? [] : {};
        node = node[segment];
      }
      node[last] = value;
    },
  };
}
