// The fixed helpers of the generated module, in the generated module's language. Each mirrors the
// gateway code named beside it; the differential test holds them to it. Only the helpers the
// module's functions use are written (a client's `noUnusedLocals` would refuse the others).
import type { Annotate } from "./source-text.ts";

interface Helper {
  uses: string[];
  code(t: Annotate): string;
}

export const helpers: Readonly<Record<string, Helper>> = {
  // A record in the sense of gateway/translation/translate-response.ts (isRecord).
  isRecord: {
    uses: [],
    code: (t) => `function isRecord(value${t(": unknown")})${t(": value is Obj")} {
  return !!value && typeof value === "object" && !Array.isArray(value);
}`,
  },
  // A v2 error answer (ErrorResponse: numeric `status`, `title`, `detail`); no v2 record has `title` or `detail`.
  // mappings/errors.ts isProblem, stricter: the gateway asks it only of answers whose status failed; here no status says so.
  isProblem: {
    uses: ["isRecord"],
    code: (t) => `function isProblem(value${t(": unknown")})${t(": boolean")} {
  return isRecord(value) && typeof value["status"] === "number" && (typeof value["detail"] === "string" || typeof value["title"] === "string");
}`,
  },
  // A record converter handed a v2 error answer (a relay with no status test: \`res.status(r.status).json(…)\`)
  // answers v1's \`{ message }\`, as the gateway does for that answer, not a record made of nothing.
  orV1Message: {
    uses: ["isProblem"],
    code: (t) => `function orV1Message(toV1${t(": (record: unknown) => any")})${t(": (answer: unknown) => any")} {
  return (answer) => (isProblem(answer) ? v1Message(answer) : toV1(answer));
}`,
  },
  objectOf: {
    uses: ["isRecord"],
    code: (t) => `function objectOf(value${t(": unknown")}, what${t(": string")}, absentIsEmpty${t(": boolean")})${t(": Obj")} {
  if (value === undefined && absentIsEmpty) return {};
  if (!isRecord(value)) throw new TypeError("v2-bridge adapter: expected " + what);
  return value;
}`,
  },
  // mappings/object-paths.ts: dotted paths, numeric segments index arrays.
  get: {
    uses: [],
    code: (t) => `function get(source${t(": unknown")}, path${t(": string")})${t(": unknown")} {
  let node${t(": any")} = source;
  for (const segment of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[segment];
  }
  return node;
}`,
  },
  put: {
    uses: [],
    code: (t) => `function put(target${t(": Obj")}, path${t(": string")}, value${t(": unknown")})${t(": void")} {
  if (value === undefined) return;
  const segments = path.split(".");
  let node${t(": any")} = target;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]${t(" as string")};
    const next = node[segment];
    if (next === undefined || next === null || typeof next !== "object") node[segment] = /^\\d+$/.test(segments[i + 1]${t(" as string")}) ? [] : {};
    node = node[segment];
  }
  node[segments[segments.length - 1]${t(" as string")}] = value;
}`,
  },
  // v1 records never carry null where v2 does: the field is left out (compiled-lens.ts toV1).
  putV1: {
    uses: ["put"],
    code: (t) => `function putV1(target${t(": Obj")}, path${t(": string")}, value${t(": unknown")})${t(": void")} {
  if (value !== null) put(target, path, value);
}`,
  },
  // mappings/compiled-lens.ts applicableV1Defaults + withV1Defaults.
  withV1Defaults: {
    uses: [],
    code: (t) => `function withV1Defaults(v1${t(": Obj")}, defaults${t(": Obj")}, unless${t(": string | undefined")}, except${t(": { field: string; when: Obj }[]")}, always${t(": string[]")})${t(": Obj")} {
  if (unless && v1[unless] !== undefined) return { ...Object.fromEntries(always.map((k) => [k, defaults[k]])), ...v1 };
  const applied${t(": Obj")} = { ...defaults };
  for (const e of except) {
    const valueOf = (k${t(": string")}) => (v1[k] !== undefined ? v1[k] : applied[k]);
    if (Object.entries(e.when).every(([k, value]) => valueOf(k) === value)) delete applied[e.field];
  }
  return { ...applied, ...v1 };
}`,
  },
  // mappings/shell-words.ts splitWords: v2 `args` back to v1's argv (the argv converter's v1 form calls it).
  splitWords: {
    uses: [],
    code: (t) => `function splitWords(line${t(": string")})${t(": string[]")} {
  const words${t(": string[]")} = [];
  let current = "";
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line.charAt(i);
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated single quote in args");
      current += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      while (i < line.length && line.charAt(i) !== '"') {
        if (line.charAt(i) === "\\\\" && i + 1 < line.length && '"\\\\$\`'.includes(line.charAt(i + 1))) i++;
        current += line.charAt(i);
        i++;
      }
      if (i >= line.length) throw new Error("unterminated double quote in args");
      inWord = true;
      i++;
    } else if (ch === "\\\\" && i + 1 < line.length) {
      current += line.charAt(i + 1);
      inWord = true;
      i += 2;
    } else if (/\\s/.test(ch)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      i++;
    } else {
      current += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(current);
  return words;
}`,
  },
  // The table's "reject" inputs: the gateway answers a v1 400 with these messages joined, after
  // the converters' own refusals (compiled-lens.ts toV2: steps first, then unmapped inputs).
  refuse: {
    uses: [],
    code: (t) => `function refuse(v1${t(": Obj")}, rules${t(": [string, string | undefined, string][]")}, refused${t(": string[]")})${t(": void")} {
  for (const [field, harmless, message] of rules) {
    const value = v1[field];
    if (value === undefined || (harmless !== undefined && JSON.stringify(value) === harmless)) continue;
    refused.push(message);
  }
  if (refused.length) throw new Error(refused.join("; "));
}`,
  },
  // mappings/input-kinds.ts wrongKind: a converter refuses an input of another kind than it reads,
  // and the lens engine reports it under the converter's v1 fields.
  checkKinds: {
    uses: ["get"],
    code: (t) => `function checkKinds(v1${t(": Obj")}, label${t(": string")}, checks${t(": [string, string | string[], boolean][]")}, refused${t(": string[]")})${t(": void")} {
  const values = checks.map(([field]) => get(v1, field));
  if (values.every((v) => v === undefined)) return;
  for (let i = 0; i < checks.length; i++) {
    const [, kind, nullable] = checks[i]${t(" as [string, string | string[], boolean]")};
    const v${t(": any")} = values[i];
    const fits = Array.isArray(kind) ? kind.includes(v) : kind === "integer" ? Number.isInteger(v) : kind === "string[]" ? Array.isArray(v) && v.every((w${t(": unknown")}) => typeof w === "string") : typeof v === kind;
    if (v === undefined || (v === null && nullable) || fits) continue;
    const what = Array.isArray(kind) ? "one of " + kind.map((k) => JSON.stringify(k)).join(", ") : kind === "string[]" ? "a list of strings" : kind === "integer" ? "an integer" : "a " + kind;
    refused.push(label + ": " + JSON.stringify(v) + " is not " + what + (nullable ? " or null" : ""));
    return;
  }
}`,
  },
};

/** The helpers named in `body` (a call `name(`), with what they use, in a fixed order. */
export function helpersFor(body: string): string[] {
  const wanted = new Set<string>();
  const add = (name: string): void => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const dep of helpers[name]!.uses) add(dep);
  };
  for (const name of Object.keys(helpers)) if (new RegExp(`\\b${name}\\(`).test(body)) add(name);
  return Object.keys(helpers).filter((name) => wanted.has(name));
}

/** The public functions every module has: lists unwrapped (translate-response.ts v2RecordsOf) and problems told as v1 messages (mappings/errors.ts). */
export function publicFunctions(t: Annotate): string {
  return `/** The records of a v2 list answer (\`{ pods: [...] }\` → \`[...]\`), as v1 answered them. */
function unwrapList(v2Answer${t(": unknown")}, operation${t(": string")})${t(": any[]")} {
  const list = lists[operation];
  if (!list) throw new Error("v2-bridge adapter: " + operation + " is not a list operation it holds");
  const items = isRecord(v2Answer) ? v2Answer[list[0]] : undefined;
  if (!Array.isArray(items) || !items.every(isRecord)) throw new Error("v2 answer for " + list[1] + " has no \\"" + list[0] + "\\" list");
  return items;
}

/** A v2 list answer as the v1 records v1 answered: unwrapped, filtered as v1's list filters did (filterList), each record translated. */
function toV1List(v2Answer${t(": unknown")}, operation${t(": string")}, filters${t("?: { [param: string]: unknown }")})${t(": any[]")} {
  const toV1 = recordLists[operation];
  if (!toV1) throw new Error("v2-bridge adapter: " + operation + " is not a record list it holds");
  // A v2 error answer where the list was expected: v1's \`{ message }\`, as for a record (orV1Message).
  if (isProblem(v2Answer)) return v1Message(v2Answer)${t(" as any")};
  const records = unwrapList(v2Answer, operation);
  return (filters ? filterList(records, operation, filters) : records).map((record) => toV1(record));
}

/** A v2 error answer (RFC 9457 problem) as v1's \`{ message }\`: detail, then each validation error. */
function v1Message(problem${t(": unknown")}, status${t("?: number")})${t(": { message: string }")} {
  if (isRecord(problem) && ("detail" in problem || "title" in problem)) {
    const p${t(": any")} = problem;
    const head = p.detail || p.title || upstreamError(p.status ?? status);
    const errors = Array.isArray(p.errors) ? p.errors.filter((e${t(": unknown")}) => typeof e === "string") : [];
    return { message: errors.length ? head + ": " + errors.join("; ") : head };
  }
  if (isRecord(problem) && typeof problem["message"] === "string") return { message: problem["message"] };
  return { message: upstreamError(status) };
}

/**
 * A schema of the app's own (zod, yup, …) that checks v1 answers, handed v2 ones: each of its
 * validating methods converts its value to v1 first (\`toV1\`), so the app's schema keeps its shape.
 */
function validatesV1${t("<S extends object>")}(schema${t(": S")}, toV1${t(": (answer: unknown) => unknown")})${t(": S")} {
  const validating = ["parse", "parseAsync", "safeParse", "safeParseAsync", "validate", "validateSync", "cast", "isValid", "isValidSync"];
  return new Proxy(schema, {
    get(target, key) {
      const member = Reflect.get(target, key);
      if (typeof key !== "string" || !validating.includes(key) || typeof member !== "function") return member;
      return (value${t(": unknown")}, ...rest${t(": unknown[]")}) => member.call(target, toV1(value), ...rest);
    },
  });
}

function upstreamError(status${t(": unknown")})${t(": string")} {
  return status === undefined ? "upstream error" : "upstream error " + status;
}`;
}
