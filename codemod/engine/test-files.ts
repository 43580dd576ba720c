// A project's own tests (`__tests__/`, `*.test.ts`, `*.spec.js`, `test/`): a v1 base written in a
// test to build the client under test, whose uses the codemod cannot follow (mocked answers,
// expectations on the records), must not keep the production calls on v1. It flips with them,
// and the test gets a mark: its mocks and expectations are in v1 shape and must be updated.
import type { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";

export const TEST_PATH = /(^|\/)(__tests__|__mocks__|tests?|specs?|e2e)\/|\.(test|spec|e2e)\.[cm]?[jt]sx?$/;

/** Judged on the path inside the project (the run's display path), not where the project sits. */
export function isTestFile(a: Analysis, node: Node): boolean {
  const display = a.files.get(node.getSourceFile().getFilePath())?.display;
  return display !== undefined && TEST_PATH.test(display.replace(/\\/g, "/"));
}
