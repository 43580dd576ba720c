// What becomes of a base once the do-no-harm check has decided (do-no-harm.ts): it flips to v2
// (with a mark where something at run time can still set it to v1), or it stays v1 with a mark
// naming each use the codemod could not follow, or why it is kept.
import type { Node } from "../ts-morph.ts";
import { V2_BASE } from "../../mappings/bases.ts";
import type { Analysis, BaseSource, Frozen } from "./state.ts";
import { addEdit, addFinding } from "./state.ts";
import { todo } from "./todo-marks.ts";
import { shortExpression } from "./expression-name.ts";
import { envShown } from "./base-sources.ts";
import { FILE_SETTING } from "./override-sources.ts";
import { callerSetBaseEdits } from "./caller-set-base.ts";
import { V2_DERIVE_NAME } from "./v1-redirect.ts";
import { quotedPosition } from "./mark-positions.ts";
import { keptInputNote, moveInput, movedInputMark } from "./action-inputs.ts";

/** Whether a base flips, and otherwise the uses that keep it v1 (or why). */
export type Verdict = { flips: boolean; unfollowed: Node[]; because?: string; why?: Map<Node, string>; tests?: Node[] };

/** Where a node is, as a mark quotes it (mark-positions.ts places it in the written file). */
export const where = quotedPosition;

export function flipOrMark(a: Analysis, base: BaseSource, verdict: Verdict, unseenBy: string[] | undefined, frozen: Frozen | undefined, unseenUses?: string[]): void {
  if (base.pinned) return;
  if (!verdict.flips && unseenUses && !frozen && !unseenBy) {
    // An auto-import convention binds this module's exports in modules the run does not hold.
    const reason = `v1 base kept: its module's exports are auto-imported, and may be used where the codemod cannot see: ${unseenUses.join(", ")}`;
    const advice = "run the codemod on the whole app (the directory of its nuxt.config), or migrate those uses by hand, then switch this base to " + V2_BASE;
    todo(a, base.literal, "base", "review", reason, advice);
    addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
    return;
  }
  if (!verdict.flips && (unseenBy || frozen)) {
    const reason = frozen ? `v1 base kept: ${frozen.why}` : `v1 base kept: files the codemod could not analyse import this module (${unseenBy!.join(", ")})`;
    const advice = frozen ? frozen.advice : "make those files readable UTF-8 under --max-file-size (or migrate them by hand), then run again";
    todo(a, base.literal, "base", "review", reason, advice);
    addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
    return;
  }
  if (verdict.flips) {
    for (const e of base.flip) addEdit(a, e);
    if (base.input) {
      moveInput(a, base.input, (e) => addEdit(a, e));
      const { reason, advice } = movedInputMark(base.input);
      todo(a, base.literal, "base", "review", reason, advice);
      addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
    }
    if (base.env) {
      const [v1, name] = [envShown(base.env), envShown(base.env, "_V2")];
      const reason = `the v2 base is now read from ${name}, not ${v1}: deployments set ${v1} to the v1 API or to a gateway's /v1, and v2 paths sent there fail`;
      const advice = `set ${name} to ${V2_BASE} (or leave it unset) wherever ${v1} is configured, then remove ${v1}`;
      todo(a, base.literal, "base", "review", reason, advice);
      addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
    }
    // The moved input is said above; the base's other overrides are said here.
    const moved = (o: string) => !!base.input && /\bget(?:Boolean|Multiline)?Input\(/.test(o) && o.includes(`${base.input.name}`);
    const others = base.override?.split(", ").filter((o) => !moved(o));
    if (others?.length) {
      const list = others;
      // Only environment variables: it is the deployments that set them, not callers.
      // A user's configuration file (`apiUrl` in a JSON file the tool reads) is set where it is deployed too.
      const files = list.some((o) => o.includes(FILE_SETTING));
      const env = list.every((o) => o.startsWith("the environment variable") || o.includes(FILE_SETTING));
      // Set by a package's users (an exported factory's option): a v1 base given there moves to v2 with the default.
      const setters = list.filter((o) => !o.startsWith("the environment variable") && !o.includes(FILE_SETTING)).map((o) => base.setBy?.find((n) => n.getText().replace(/\s+/g, " ") === o));
      const derived = !env && setters.every((n) => !!n) ? callerSetBaseEdits(a, setters as Node[]) : undefined;
      if (derived) {
        for (const e of derived) addEdit(a, e);
        const reason = `callers the codemod cannot see may set ${base.override}: a v1 base or a gateway's /v1 given there now goes to its v2 counterpart (${V2_DERIVE_NAME}); any other base given there must be the v2 one`;
        const advice = `make sure the package's users give ${base.override} a v2 base ${V2_BASE} (or a v1 one ${V2_DERIVE_NAME} maps, or none), and say so in its release notes`;
        todo(a, base.literal, "base", "review", reason, advice);
        addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
        return;
      }
      // An action's input (`core.getInput("api-url")`) is set by the workflows that use the action.
      const inputs = list.every((o) => /\bget(?:Boolean|Multiline)?Input\(/.test(o));
      const who = env ? `a ${files ? "deployment or configuration file" : "deployment"} that sets it to the v1 base (or a gateway's /v1)` : inputs ? "a workflow that gives the action the v1 base (or a gateway's /v1) there" : "a caller that passes the v1 base (or a gateway's /v1) there";
      const reason = `the v2 base applies only when ${list.length > 1 ? `none of ${list.join(", ")} is set` : `${list[0]} is not set`}: ${who} now sends v2 paths to v1`;
      const advice = env ? `set ${list.map((o) => o.replace("the environment variable ", "")).join(", ")} to the v2 base ${V2_BASE} (or leave it unset) wherever it is configured` : `make sure every value given to ${list.join(", ")} is the v2 base ${V2_BASE} (or none)`;
      todo(a, base.literal, "base", "review", reason, advice);
      addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
    }
    return;
  }
  const uses = verdict.unfollowed.slice(0, 8).map((u) => `${where(u)} (${shortExpression(u)}${verdict.why?.has(u) ? `: ${verdict.why.get(u)}` : ""})`);
  const more = verdict.unfollowed.length > 8 ? ` and ${verdict.unfollowed.length - 8} more` : "";
  const input = base.input ? keptInputNote(base.input) : "";
  const reason = verdict.because ? `v1 base kept: ${verdict.because}${input}` : `v1 base kept: the codemod could not follow ${verdict.unfollowed.length === 1 ? "this use" : "these uses"} to a v1 call: ${uses.join(", ")}${more}${input}`;
  const advice = `migrate those calls by hand (v2 paths, bodies and answers: docs/mapping.md), then switch this base to ${V2_BASE}`;
  todo(a, base.literal, "base", "review", reason, advice);
  addFinding(a, base.literal, { operation: null, v1: null, v2: null, category: "review", reason, advice, subject: "base" });
}
