// What the record-read pass learnt about one call's answer: the record fields its flow reads, and
// whether that flow reaches every read (nothing leaves the codemod's sight). The query pass uses
// it to drop an include expansion whose field nobody reads (query-moves.ts).
import type { Plan } from "../state.ts";

export interface AnswerReads {
  fields: ReadonlySet<string>;
  /** Every read of the answer is among `fields`: one body read, followed, nothing out of sight or shown whole. */
  complete: boolean;
}

const facts = new WeakMap<Plan, AnswerReads>();

export function noteAnswerReads(plan: Plan, reads: AnswerReads): void {
  facts.set(plan, reads);
}

export function answerReads(plan: Plan): AnswerReads | undefined {
  return facts.get(plan);
}

/** Sites whose Observable's values the adapter converts where they leave the request: nothing downstream sees a v2 record. */
const streamsConverted = new WeakSet<Plan>();

export function noteStreamConverted(plan: Plan): void {
  streamsConverted.add(plan);
}

export function streamConverted(plan: Plan): boolean {
  return streamsConverted.has(plan);
}
