// Loads a generated adapter module's text as a client would run it: TypeScript through the
// compiler's transpileModule, then evaluated as CommonJS (ES module syntax included).
import ts from "typescript";

export interface AdapterExports {
  toV2Body: Record<string, (body: unknown) => any>;
  toV1Record: Record<string, (record: unknown) => any>;
  toV1List: (answer: unknown, operation: string, filters?: Record<string, unknown>) => any[];
  unwrapList: (answer: unknown, operation: string) => any[];
  filterList: (records: unknown[], operation: string, filters: Record<string, unknown>) => any[];
  v1Message: (problem: unknown, status?: number) => { message: string };
  toV2Query: Record<string, (query?: object | null) => Record<string, any>>;
}

export function loadAdapter(text: string): AdapterExports {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = { exports: {} as AdapterExports };
  new Function("module", "exports", js)(module, module.exports);
  return module.exports;
}

export type Outcome = { value: unknown } | { threw: string };

export function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { threw: (error as Error).message };
  }
}
