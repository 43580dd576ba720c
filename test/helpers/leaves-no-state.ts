// Setup file of the `shared` project (vitest.config.ts): its files run one after another in one
// process, so each must leave the process as it found it. Evaluated afresh before each test file
// (before the file's own module code), it takes the state then and fails the file, naming what
// changed, if the state differs once the file's own afterAll hooks have run.
import { afterAll, expect } from "vitest";
import { leftBehind, processState } from "./process-state.ts";

const before = processState();

afterAll(() => {
  expect(leftBehind(before, processState()), "process state this test file left behind for the next file in its worker").toEqual([]);
});
