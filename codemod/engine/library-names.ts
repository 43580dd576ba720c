// What known libraries take as a name, never as a URL: Redux Toolkit's action types
// (`createAsyncThunk('pods/stopOne', …)`, `createAction('pods/added')`, `createSlice({ name: 'pods' })`),
// redux-saga's patterns (`takeEvery('pods/stop', …)`), a translation key (`t('pods/title')`).
// `<slice>/<action>` is Redux's convention and slice names are the API's resources, so these texts
// look like v1 routes; the recall net (route-reach.ts) must not count them. A function is known by
// what it is bound to (an import from the package, through `createAsyncThunk.withTypes<…>()` or a
// hook's result such as `const { t } = useTranslation()`), never by its name alone.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { bind } from "./values.ts";
import { unwrapExpression } from "./urls.ts";
import { typedOuter } from "./nodes.ts";

interface Names {
  /** Positional arguments that are names. */
  args?: number[];
  /** Keys of an object argument that are names: [argument index, key]. */
  keys?: [number, string][];
}

const LIBRARIES: { module: RegExp; exports: Record<string, Names> }[] = [
  {
    module: /^@reduxjs\/toolkit(\/react)?$/,
    exports: { createAsyncThunk: { args: [0] }, createAction: { args: [0] }, createSlice: { keys: [[0, "name"]] } },
  },
  { module: /^redux-saga\/effects$/, exports: { take: { args: [0] }, takeEvery: { args: [0] }, takeLatest: { args: [0] }, takeLeading: { args: [0] }, takeMaybe: { args: [0] }, debounce: { args: [1] }, throttle: { args: [1] } } },
  { module: /^i18next$/, exports: { t: { args: [0] } } },
];

/** Hooks and objects whose member `t` translates a key: `useTranslation()` (react-i18next, next-i18next), `useI18n()` (vue-i18n), i18next's instance. */
const TRANSLATORS: { module: RegExp; names: string[] }[] = [
  { module: /^(react-i18next|next-i18next)$/, names: ["useTranslation"] },
  { module: /^vue-i18n$/, names: ["useI18n"] },
  { module: /^i18next$/, names: ["default", "*"] },
];
const TRANSLATE: Names = { args: [0] };

/** The known library function a callee is, or undefined. */
function known(a: Analysis, callee: Node, depth = 0): Names | undefined {
  const n = unwrapExpression(callee);
  if (depth > 4) return undefined;
  if (Node.isPropertyAccessExpression(n)) {
    const name = n.getName();
    const obj = unwrapExpression(n.getExpression());
    const b = Node.isIdentifier(obj) ? bind(a, obj) : undefined;
    if (b?.kind !== "import") return undefined;
    // `RTK.createAsyncThunk(…)` of `import * as RTK`; `i18next.t(…)`, `i18n.t(…)` of its default export.
    if (b.name === "*") return exportOf(b.module, name) ?? (name === "t" ? translator(b.module, "*") : undefined);
    return name === "t" ? translator(b.module, b.name) : undefined;
  }
  if (!Node.isIdentifier(n)) return undefined;
  const b = bind(a, n);
  if (b?.kind === "import") return exportOf(b.module, b.name);
  if (b?.kind !== "var" || !b.init) return undefined;
  const init = unwrapExpression(b.init);
  // `const { t } = useTranslation()`.
  if (b.path.length === 1 && b.path[0] === "t" && Node.isCallExpression(init)) {
    const hook = unwrapExpression(init.getExpression());
    const hb = Node.isIdentifier(hook) ? bind(a, hook) : undefined;
    return hb?.kind === "import" ? translator(hb.module, hb.name) : undefined;
  }
  if (b.path.length) return undefined;
  // `export const createAppAsyncThunk = createAsyncThunk.withTypes<…>()`: the same function, typed.
  if (Node.isCallExpression(init)) {
    const c = unwrapExpression(init.getExpression());
    if (Node.isPropertyAccessExpression(c) && c.getName() === "withTypes") return known(a, c.getExpression(), depth + 1);
    return undefined;
  }
  // `const thunk = createAsyncThunk`: an alias.
  return Node.isIdentifier(init) || Node.isPropertyAccessExpression(init) ? known(a, init, depth + 1) : undefined;
}

function exportOf(module: string, name: string): Names | undefined {
  return LIBRARIES.find((l) => l.module.test(module))?.exports[name];
}

function translator(module: string, name: string): Names | undefined {
  return TRANSLATORS.some((t) => t.module.test(module) && t.names.includes(name)) ? TRANSLATE : undefined;
}

/** Whether argument `index` of the call is a name a known library takes (never a URL). */
export function namesArgument(a: Analysis, call: Node, index: number): boolean {
  if (!Node.isCallExpression(call)) return false;
  return !!known(a, call.getExpression())?.args?.includes(index);
}

/** Whether `key` of the object literal given as an argument to a known library function is a name (`createSlice({ name })`). */
export function namesKey(a: Analysis, obj: Node, key: string): boolean {
  const outer = typedOuter(obj);
  const call = outer.getParent();
  if (!call || !Node.isCallExpression(call)) return false;
  const index = call.getArguments().indexOf(outer as never);
  return index >= 0 && !!known(a, call.getExpression())?.keys?.some(([i, k]) => i === index && k === key);
}
