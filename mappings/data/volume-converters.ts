// Volume converters: v1's flat `volumeInGb` / `volumeMountPath` / `networkVolumeId` ⇄ v2 `mounts`.
import type { Converter } from "../types.ts";
import { define } from "../input-kinds.ts";
import { knownValue, mayBe, operand, orElse, v1FormOf, type Input } from "./source-forms.ts";


/** v2's persistent mounts have a 10 GB floor (PersistentMount.size minimum); say so before sending. */
const PERSISTENT_FLOOR_GB = 10;
function persistentMount(size: number, path: string): { persistent: { size: number; path: string } } {
  if (size < PERSISTENT_FLOOR_GB) throw new Error(`v2 pod volumes are at least ${PERSISTENT_FLOOR_GB} GB (volumeInGb ${size}); ask for ${PERSISTENT_FLOOR_GB} or more, or 0 for none`);
  return { persistent: { size, path } };
}

const isGpu = (computeType: Input) => !computeType || knownValue(computeType)?.value === "GPU";

/**
 * The source of toV2's persistent mount for a size written as an expression: the mount when the
 * size is positive, else `otherwise` (known sizes pick their branch).
 */
function persistentSource(size: NonNullable<Input>, path: string, otherwise: string): string {
  const mount = `{ persistent: { size: ${size.source}, path: ${path} } }`;
  const known = knownValue(size);
  if (known) return typeof known.value === "number" && known.value > 0 ? mount : otherwise;
  // `?? 0`: a size that may be undefined or null is compared as tsc allows (and is no volume either way).
  return `${size.optional ? `(${operand(size.source)} ?? 0)` : operand(size.source)} > 0 ? ${mount} : ${otherwise}`;
}

/** v1 pods mount a network volume at volumeMountPath instead of the local volume. */
export const podMounts = define({
  name: "podMounts",
  summary: "v1 `volumeInGb` + `volumeMountPath` + `networkVolumeId` (+ `computeType`) ⇄ v2 `mounts` {persistent {size, path}} or {network [{volumeId, path}]}; volumeInGb 0 means no volume. v2 CPU pods take no persistent mount: v1's default volume is left out for them and an explicit volumeInGb is a 400.",
  lossless: false,
  accepts: [{ kind: "integer", nullable: true }, { kind: "string" }, { kind: "string" }, { kind: ["GPU", "CPU"] }],
  toV2: ([size, mountPath, networkVolumeId, computeType]) => {
    const path = (mountPath as string | undefined) ?? "/workspace";
    if (typeof networkVolumeId === "string" && networkVolumeId) {
      return [{ network: [{ volumeId: networkVolumeId, path }] }];
    }
    if (typeof size === "number" && size > 0) {
      if (computeType === "CPU") {
        throw new Error("v2 CPU pods cannot have a pod volume (mounts.persistent is invalid when cpu is set); leave volumeInGb out or 0 and keep data on a network volume (networkVolumeId)");
      }
      return [persistentMount(size, path)];
    }
    if (size === undefined && mountPath !== undefined) return [undefined];
    return [size === 0 ? {} : undefined];
  },
  toV1: ([mounts]) => {
    const m = (mounts ?? {}) as { persistent?: { size: number; path: string }; network?: { volumeId: string; path: string }[] };
    const net = m.network?.[0];
    if (net) return [m.persistent?.size ?? 0, net.path, net.volumeId];
    if (m.persistent) return [m.persistent.size, m.persistent.path, undefined];
    return [mounts === undefined ? undefined : 0, undefined, undefined];
  },
  // Every input undefined at run time gives undefined here too, so no guard is needed.
  codemod: ([size, mountPath, networkVolumeId, computeType]) => {
    const path = orElse(mountPath, `"/workspace"`);
    // A persistent mount on a pod that may be a CPU pod cannot be decided at build time.
    if (size && !isGpu(computeType)) return null;
    // As toV2: volumeInGb 0 means no volume (an empty mounts object); no number, no mounts.
    let local = "undefined";
    if (size) {
      const known = knownValue(size);
      const none = known ? (known.value === 0 ? "{}" : "undefined") : mayBe(size, 0) ? `${operand(size.source)} === 0 ? {} : undefined` : "undefined";
      local = persistentSource(size, path, none);
    }
    if (!networkVolumeId) return [size ? local : undefined];
    const network = `{ network: [{ volumeId: ${networkVolumeId.source}, path: ${path} }] }`;
    const id = knownValue(networkVolumeId);
    if (id) return [typeof id.value === "string" && id.value ? network : local];
    return [`${operand(networkVolumeId.source)} ? ${network} : ${local}`];
  },
  codemodToV1: v1FormOf((mounts) => {
    const net = `${mounts}?.network?.[0]`;
    const persistent = `${mounts}?.persistent`;
    return [
      `${net} ? (${mounts}.persistent?.size ?? 0) : ${persistent} ? ${mounts}.persistent.size : 0`,
      `${net} ? ${net}.path : ${persistent} ? ${mounts}.persistent.path : undefined`,
      `${net} ? ${net}.volumeId : undefined`,
    ];
  }),
});

/** A persistent mount back to v1's `volumeInGb` + `volumeMountPath` (0 when the record has other mounts). */
function persistentToV1([mounts]: unknown[]): unknown[] {
  const p = (mounts as { persistent?: { size: number; path: string } } | undefined)?.persistent;
  return p ? [p.size, p.path] : [mounts === undefined ? undefined : 0, undefined];
}

const persistentToV1Source = v1FormOf((mounts) => [`${mounts}?.persistent ? ${mounts}.persistent.size : 0`, `${mounts}?.persistent ? ${mounts}.persistent.path : undefined`]);

function persistentToV2(size: unknown, mountPath: unknown): unknown[] {
  return typeof size === "number" && size > 0 ? [persistentMount(size, (mountPath as string) ?? "/workspace")] : [undefined];
}

/**
 * An update's volume: v2 can resize or move it but never remove it, so `volumeInGb: 0` is refused
 * (`removal` says why) and the codemod marks a literal 0 for review instead. A size only known at
 * run time is sent whenever it is there, so a 0 or a size under the floor reaches v2, which
 * refuses it as the gateway does.
 */
const ALONE = "v2 replaces the whole mount, so volumeInGb or volumeMountPath alone needs the current mount first (GET, then PATCH both halves); the gateway does that read";

function volumeUpdate(name: string, summary: string, removal: string, nullable: boolean): Converter {
  return define({
    name,
    summary,
    lossless: false,
    accepts: [{ kind: "integer", nullable }, { kind: "string" }],
    toV2: ([size, mountPath]) => {
      if (size === 0) throw new Error(removal);
      return persistentToV2(size, mountPath);
    },
    toV1: persistentToV1,
    codemodToV1: persistentToV1Source,
    // v2 replaces the whole mount: a size or a path alone (or either only perhaps there at run
    // time) needs the current mount, which the gateway reads first; the codemod cannot.
    codemodReason: ALONE,
    codemodReview: ([size, mountPath]) => ((size === undefined) !== (mountPath === undefined) ? ALONE : null),
    codemod: ([size, mountPath]) => {
      if (!size && !mountPath) return [undefined];
      if (!size || !mountPath || size.optional || mountPath.optional) return null;
      const known = knownValue(size);
      if (known?.value === 0) return null;
      const mount = `{ persistent: { size: ${size.source}, path: ${orElse(mountPath, `"/workspace"`)} } }`;
      if (known) return [typeof known.value === "number" && known.value > 0 ? mount : undefined];
      // No size (undefined, or null where v1 allows it) is no change, as in toV2.
      return [size.optional ? `${operand(size.source)} == null ? undefined : ${mount}` : mount];
    },
  });
}

/** Pod update: v2 can resize or move the pod volume but never remove it. */
export const podVolumeUpdate = volumeUpdate(
  "podVolumeUpdate",
  "v1 pod update `volumeInGb` + `volumeMountPath` ⇄ v2 `mounts.persistent` {size, path}; `volumeInGb: 0` (remove the volume) is a 400 because v2 cannot clear a pod's mounts.",
  "v2 cannot remove a pod's volume (clearing mounts is not supported, and the mount kind is fixed at create); leave volumeInGb out, or create a new pod without a volume",
  true,
);

export const templateMounts = define({
  name: "templateMounts",
  summary: "v1 template `volumeInGb` + `volumeMountPath` ⇄ v2 `mounts.persistent` {size, path}.",
  lossless: false,
  accepts: [{ kind: "integer" }, { kind: "string" }],
  toV2: ([size, mountPath]) => persistentToV2(size, mountPath),
  toV1: persistentToV1,
  codemodToV1: persistentToV1Source,
  codemod: ([size, mountPath]) => [size ? persistentSource(size, orElse(mountPath, `"/workspace"`), "undefined") : undefined],
});

/** Template updates: v2 keeps a template's mount when `mounts` is omitted or `{}`, so none can be removed. */
export const templateVolumeUpdate = volumeUpdate(
  "templateVolumeUpdate",
  "v1 template update `volumeInGb` + `volumeMountPath` ⇄ v2 `mounts.persistent` {size, path}; `volumeInGb: 0` (remove the volume) is a 400 because a v2 template PATCH cannot clear its mount.",
  "v2 cannot remove a template's volume (a PATCH without mounts keeps the existing one); leave volumeInGb out, or create a new template without a volume",
  false,
);
