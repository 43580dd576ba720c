// Named value converters. Each says whether it is lossless and how the codemod writes it.
import type { Converter } from "../types.ts";
import { joinWords, splitWords } from "../shell-words.ts";
import { recordConverters } from "./record-converters.ts";
import { define } from "../input-kinds.ts";
import { endpointCpu, endpointCpuUpdate, endpointGpu, endpointGpuUpdate, podCompute } from "./compute-converters.ts";
import { podMounts, podVolumeUpdate, templateMounts, templateVolumeUpdate } from "./volume-converters.ts";
import { distinct, knownValue, mayBe, operand, orElse, unlessAllUndefined, v1Form, v1FormOf, wholePairOnUpdate } from "./source-forms.ts";

export { endpointCpu, endpointCpuUpdate, endpointGpu, endpointGpuUpdate, podCompute, podMounts, podVolumeUpdate, templateMounts, templateVolumeUpdate };

const isArray = (v: unknown): v is unknown[] => Array.isArray(v);
const nonEmpty = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0;

const SCALER_TYPES = ["QUEUE_DELAY", "REQUEST_COUNT"];


export const flashboot = define({
  name: "flashboot",
  summary: "v1 boolean `flashboot` ⇄ v2 enum: true → \"FLASHBOOT\", false → \"OFF\"; v2 \"PRIORITY_FLASHBOOT\" reads back as true.",
  lossless: true,
  accepts: [{ kind: "boolean" }],
  toV2: ([on]) => [on === undefined ? undefined : on ? "FLASHBOOT" : "OFF"],
  toV1: ([mode]) => [mode === undefined ? undefined : mode !== "OFF"],
  codemod: ([on]) => {
    if (!on) return [undefined];
    const known = knownValue(on);
    if (known) return [known.value ? `"FLASHBOOT"` : `"OFF"`];
    const mode = `${operand(on.source)} ? "FLASHBOOT" : "OFF"`;
    return [on.optional ? `${operand(on.source)} === undefined ? undefined : ${mode}` : mode];
  },
  codemodToV1: v1FormOf((mode) => [`${mode} !== "OFF"`]),
});

const KEEPS_PRIORITY = "on an endpoint in PRIORITY_FLASHBOOT, v1 flashboot true kept priority capacity, and v2 FLASHBOOT gives it up; the gateway reads the endpoint first and leaves flashboot out";

/** Endpoint update: true may mean "keep PRIORITY_FLASHBOOT" (flashbootKeepsPriority), which takes a read of the endpoint. */
export const flashbootUpdate = define({
  ...flashboot,
  name: "flashbootUpdate",
  summary: "As `flashboot`, for updates: `true` on an endpoint already in PRIORITY_FLASHBOOT keeps it there (the gateway reads the endpoint and leaves flashboot out of the PATCH) rather than downgrading it to FLASHBOOT; `false` is OFF.",
  codemodReason: KEEPS_PRIORITY,
  codemodReview: (_source, [on]) => (on === true ? KEEPS_PRIORITY : null),
  // Only a flashboot known to be false (or absent) converts without the read.
  codemod: (inputs) => {
    const [on] = inputs;
    if (!on) return [undefined];
    return knownValue(on)?.value === false ? [`"OFF"`] : null;
  },
});

export const argv = define({
  name: "argv",
  summary: "v1 argv array (`dockerStartCmd`) ⇄ v2 `args` command-line string, shell-quoted so splitting gives the array back; `[]` (the image's own CMD) is `\"\"`, which also clears args on an update.",
  lossless: true,
  accepts: [{ kind: "string[]" }],
  toV2: ([words]) => [isArray(words) ? joinWords(words.map(String)) : undefined],
  toV1: ([line]) => [typeof line === "string" && line.length ? splitWords(line) : line === undefined ? undefined : []],
  // joinWords written out: each word kept when it is a safe token, else single-quoted ('\\'' for a quote).
  // `Array.from(…, String)` types the words as strings even where the list is `any` (strict TS).
  codemod: ([words]) => {
    if (!words) return [undefined];
    const known = knownValue(words);
    if (known && Array.isArray(known.value)) return [JSON.stringify(joinWords(known.value.map(String)))];
    const join = `Array.from(${words.source}, String).map((word) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : "'" + word.replace(/'/g, "'\\\\''") + "'")).join(" ")`;
    return [words.optional ? `${operand(words.source)} === undefined ? undefined : ${join}` : join];
  },
  codemodReason: "a v1 argv array that is not a list of strings cannot be joined into v2 args",
  // splitWords: the adapter's copy of mappings/shell-words.ts.
  codemodToV1: v1FormOf((line) => [`typeof ${line} === "string" && ${line}.length ? splitWords(${line}) : []`]),
});

export const podStatus = define({
  name: "podStatus",
  summary: "v2 pod `status` → v1 `desiredStatus`: PROVISIONING/STARTING/RUNNING → RUNNING, EXITED/ERROR → EXITED, TERMINATED → TERMINATED.",
  lossless: false,
  toV2: ([desired]) => [desired],
  toV1: ([status]) => {
    if (status === undefined) return [undefined];
    if (status === "EXITED" || status === "ERROR") return ["EXITED"];
    if (status === "TERMINATED") return ["TERMINATED"];
    return ["RUNNING"];
  },
  codemod: null,
  codemodReason: "v2 `status` has more states than v1 `desiredStatus`; compare against the v2 states explicitly",
  codemodToV1: v1FormOf((s) => [`${s} === "EXITED" || ${s} === "ERROR" ? "EXITED" : ${s} === "TERMINATED" ? "TERMINATED" : "RUNNING"`]),
});

export const scaling = define({
  name: "scaling",
  summary: "v1 `scalerType` + `scalerValue` ⇄ v2 `scaling` {type, queueDelay | requestCount}; v1's default type is QUEUE_DELAY and default value 4.",
  lossless: true,
  accepts: [{ kind: SCALER_TYPES }, { kind: "integer" }],
  toV2: ([type, value]) => {
    if (type === undefined && value === undefined) return [undefined];
    const t = (type ?? "QUEUE_DELAY") as string;
    const v = value ?? 4;
    return [t === "REQUEST_COUNT" ? { type: t, requestCount: v } : { type: t, queueDelay: v }];
  },
  toV1: ([s]) => {
    if (!s || typeof s !== "object") return [undefined, undefined];
    const obj = s as Record<string, unknown>;
    return [obj.type, obj.type === "REQUEST_COUNT" ? obj.requestCount : obj.queueDelay];
  },
  codemod: (inputs) => {
    const [type, value] = inputs;
    if (!type && !value) return [undefined];
    const v = orElse(value, "4");
    const queueDelay = (t: string) => `{ type: ${t}, queueDelay: ${v} }`;
    const requestCount = `{ type: "REQUEST_COUNT", requestCount: ${v} }`;
    // A type whose values are known picks its branch: comparing it with a value it cannot have would not type-check (TS2367).
    let form: string;
    if (!type) form = queueDelay(`"QUEUE_DELAY"`);
    else if (type.known?.value === "REQUEST_COUNT") form = type.optional ? `${operand(type.source)} === undefined ? ${queueDelay(`"QUEUE_DELAY"`)} : ${requestCount}` : requestCount;
    else if (!mayBe(type, "REQUEST_COUNT")) form = queueDelay(orElse(type, `"QUEUE_DELAY"`));
    else {
      const t = orElse(type, `"QUEUE_DELAY"`);
      form = `${operand(t)} === "REQUEST_COUNT" ? ${requestCount} : ${queueDelay(t)}`;
    }
    return [unlessAllUndefined(inputs, form)];
  },
  codemodToV1: v1FormOf((s) => {
    const isObject = `${s} && typeof ${s} === "object"`;
    return [`${isObject} ? ${s}.type : undefined`, `${isObject} ? (${s}.type === "REQUEST_COUNT" ? ${s}.requestCount : ${s}.queueDelay) : undefined`];
  }),
});

/** Endpoint update: as scaling, but half a pair is completed from the endpoint's current scaling (scalingReadModifyWrite), which the codemod cannot read. */
export const scalingUpdate = define(
  wholePairOnUpdate(
    scaling,
    "scalingUpdate",
    "As `scaling`, for updates: v2 replaces `scaling` as a whole, so a v1 update sending only `scalerType` or only `scalerValue` is completed from the endpoint's current scaling (the gateway reads it first) instead of defaulting the other half.",
    "v2 replaces scaling as a whole, so scalerType or scalerValue alone needs the current scaling first (GET, then PATCH both); the gateway does that read",
  ),
);

/** v2 rejects an idle timeout on queue-based endpoints that scale on REQUEST_COUNT (v1 endpoints are all queue-based). */
export const idleTimeout = define({
  name: "idleTimeout",
  summary: "v1 `idleTimeout` (+ `scalerType`) ⇄ v2 `workers.idleTimeout`; left out (with a warning) when `scalerType` is REQUEST_COUNT, where v2 does not apply it and rejects it.",
  lossless: false,
  accepts: [{ kind: "integer" }, { kind: SCALER_TYPES }],
  toV2: ([timeout, scalerType], ctx) => {
    if (timeout !== undefined && scalerType === "REQUEST_COUNT") {
      ctx.warn?.("idleTimeout ignored: v2 does not apply an idle timeout to endpoints scaling on REQUEST_COUNT (it rejects one)", "idleTimeout");
      return [undefined];
    }
    return [timeout];
  },
  toV1: ([timeout]) => [timeout, undefined],
  codemod: ([timeout, scalerType]) => {
    if (!timeout) return [undefined];
    if (!scalerType) return [timeout.source];
    // A scaler type whose values are known picks the branch (no comparison tsc would reject as always false).
    if (!mayBe(scalerType, "REQUEST_COUNT")) return [timeout.source];
    if (scalerType.known?.value === "REQUEST_COUNT") return [scalerType.optional ? `${operand(scalerType.source)} === undefined ? ${timeout.source} : undefined` : undefined];
    return [`${operand(scalerType.source)} === "REQUEST_COUNT" ? undefined : ${timeout.source}`];
  },
  codemodToV1: v1FormOf((timeout) => [timeout, undefined]),
});

export const computeKind = define({
  name: "computeKind",
  summary: "v2 endpoint or pod `gpu` / `cpu` → v1 `computeType` (\"CPU\" when a CPU flavour is set, else \"GPU\").",
  lossless: false,
  toV2: () => [undefined, undefined],
  // Endpoints carry a `cpu` list, pods a single `cpu` object: either means CPU.
  toV1: ([, cpu]) => [nonEmpty(cpu) || (!!cpu && typeof cpu === "object" && !Array.isArray(cpu)) ? "CPU" : "GPU"],
  codemod: null,
  codemodReason: "check whether the v2 endpoint has `cpu` entries instead",
  // An absent cpu is GPU (gpu is present, or the gateway would not call it).
  codemodToV1: v1Form(([gpu, cpu]) =>
    gpu === undefined && cpu === undefined ? [] : [cpu === undefined ? `"GPU"` : `${cpu} && typeof ${cpu} === "object" && (!Array.isArray(${cpu}) || ${cpu}.length > 0) ? "CPU" : "GPU"`],
  ),
});

export const networkVolumeList = define({
  name: "networkVolumeList",
  summary: "v1 endpoint `networkVolumeId` + `networkVolumeIds` ⇄ v2 `networkVolumes` (one list; the single id comes first).",
  lossless: false,
  accepts: [{ kind: "string" }, { kind: "string[]" }],
  toV2: ([single, many]) => {
    const list: string[] = [];
    if (typeof single === "string" && single) list.push(single);
    if (isArray(many)) for (const id of many) if (!list.includes(String(id))) list.push(String(id));
    return [single === undefined && many === undefined ? undefined : list];
  },
  toV1: ([list]) => {
    if (!isArray(list)) return [undefined, undefined];
    return [list[0], list];
  },
  codemod: (inputs) => {
    const [single, many] = inputs;
    if (!single && !many) return [undefined];
    // As toV2: an empty or missing single id is left out, and an id named twice is sent once.
    const id = single && knownValue(single);
    const always = !!id && typeof id.value === "string" && id.value !== "";
    const head = !single || (id && !always) ? undefined : always ? single.source : `${operand(single.source)} ? [${single.source}] : []`;
    if (!many) return [unlessAllUndefined(inputs, head === undefined ? "[]" : always ? `[${head}]` : head)];
    const rest = many.optional ? `${operand(many.source)} ?? []` : many.source;
    if (head === undefined) return [unlessAllUndefined(inputs, distinct(rest))];
    return [unlessAllUndefined(inputs, `Array.from(new Set([${always ? head : `...(${head})`}, ...${operand(rest)}]))`)];
  },
  codemodToV1: v1FormOf((list) => [`Array.isArray(${list}) ? ${list}[0] : undefined`, `Array.isArray(${list}) ? ${list} : undefined`]),
});

export const cpuDetails = define({
  name: "cpuDetails",
  summary: "v2 pod `cpu` {id, vcpuCount, memory} → v1 `cpuFlavorId`, `vcpuCount`, `memoryInGb`.",
  lossless: false,
  toV2: () => [undefined],
  toV1: ([cpu]) => {
    const c = cpu as { id?: string; vcpuCount?: number; memory?: number } | undefined | null;
    return c ? [c.id, c.vcpuCount, c.memory] : [undefined, undefined, undefined];
  },
  codemod: null,
  codemodReason: "read v2 `cpu.id`, `cpu.vcpuCount`, `cpu.memory` instead",
  codemodToV1: v1FormOf((cpu) => [`${cpu} ? ${cpu}.id : undefined`, `${cpu} ? ${cpu}.vcpuCount : undefined`, `${cpu} ? ${cpu}.memory : undefined`]),
});


export const converters: Record<string, Converter> = Object.fromEntries(
  [flashboot, flashbootUpdate, argv, podStatus, scaling, scalingUpdate, idleTimeout, podMounts, podVolumeUpdate, templateMounts, templateVolumeUpdate, podCompute, endpointGpu, endpointGpuUpdate, endpointCpu, endpointCpuUpdate, computeKind, networkVolumeList, cpuDetails, ...recordConverters].map((c) => [c.name, c]),
);

export function converterNamed(name: string): Converter {
  const converter = converters[name];
  if (!converter) throw new Error(`unknown converter "${name}"`);
  return converter;
}
