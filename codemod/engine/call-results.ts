// Whether a call can give back the base literal being followed (follow-uses.ts follows a returned
// value to each call of its function): a call that cannot is not a use of the base, so a shared
// config getter (`get(key)` reading `DEFAULTS[key]`) does not make every `get("OTHER")` one.
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { optionsOf, type Frame } from "./evaluate/value.ts";
import { functionNamed } from "./record-callees.ts";

export class CallResults {
  /** Keyed reads the value was followed through (`DEFAULTS[key]` for the key `RUNPOD_API_URL`). */
  private readonly keyedReads: { read: Node; want: string }[] = [];

  constructor(private readonly a: Analysis) {}

  /** The followed value was read out by key at `read` (`DEFAULTS[key]`, the key able to be `want`). */
  noteKeyedRead(read: Node, want: string): void {
    this.keyedReads.push({ read, want });
  }

  /**
   * A call whose every possible result is known and none is the followed literal: with its own
   * arguments bound (`get("SLACK_URL")` of `get(key)` reading `DEFAULTS[key]`), it does not return this base.
   */
  cannotHold(call: Node, literal: Node | undefined): boolean {
    if (!literal) return false;
    const options = optionsOf(this.a.evaluator.evaluate(call));
    if (options.every((o) => o.kind === "env" || (o.kind === "string" && o.node !== literal))) return true;
    return this.otherKey(call);
  }

  /**
   * `config.get("DEFAULT_DATA_CENTER")` of `get(key)` whose value was followed in through
   * `DEFAULTS[key]`: with this call's arguments bound, the key is known and is another key, so the
   * read gives another value here (whatever else the function returns never held this one).
   */
  private otherKey(call: Node): boolean {
    const fn = Node.isCallExpression(call) ? functionNamed(this.a, call.getExpression()) : undefined;
    if (!fn || !Node.isCallExpression(call)) return false;
    const reads = this.keyedReads.filter((k) => k.read.getSourceFile() === fn.getSourceFile() && k.read.getStart() >= fn.getStart() && k.read.getEnd() <= fn.getEnd());
    if (!reads.length) return false;
    const params = ((fn as any).getParameters?.() ?? []) as Node[];
    const frame: Frame = { args: new Map(), parent: undefined };
    call.getArguments().forEach((arg, i) => params[i] && frame.args.set(params[i]!, { arg, frame: undefined }));
    return reads.every(({ read, want }) => {
      const arg = Node.isElementAccessExpression(read) ? read.getArgumentExpression() : undefined;
      const keys = arg ? optionsOf(this.a.evaluator.evaluate(arg, frame)) : [];
      return keys.length > 0 && keys.every((k) => k.kind === "string" && k.text !== want);
    });
  }
}
