// Which request helpers have every call planned (their callers are the sites, so a URL part inside
// one is accounted for), and which are exported with no caller in the run (code outside it calls
// them with v1 paths). A helper's uses are followed by the follower (follow-uses.ts).
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import { functionName, references } from "./references.ts";
import { baseField, exportedOutward, objectHeldName } from "./outside-callers.ts";
import { receiverHolds } from "./receiver-base.ts";
import { unwrapExpression } from "./urls.ts";
import { handsOnOwn } from "./evaluate/recursion.ts";
import { runningFunction } from "./scope.ts";

export class PlannedHelpers {
  private readonly memo = new Map<Node, boolean>();
  /** Helpers exported with no caller in the run (their name): code outside it calls them. */
  private readonly calledOutside = new Map<Node, string>();
  /** Each URL part inside a request helper → the helpers it belongs to (indexed once: looked up per followed use). */
  private readonly helperOf = new Map<Node, Node[]>();

  /**
   * `follow` follows one use from scratch, collecting the uses no planned site accounts for;
   * `literal` is the base being followed (a method on an instance that cannot hold it is not its use).
   */
  constructor(
    private readonly a: Analysis,
    private readonly follow: (use: Node, out: Node[]) => void,
    private readonly literal: () => Node | undefined,
  ) {
    for (const [fn, parts] of a.helperParts) for (const part of parts) this.helperOf.set(part, [...(this.helperOf.get(part) ?? []), fn]);
  }

  /**
   * Whether a node is a URL part of helpers whose every call was planned. A part several helpers
   * share (a base computed in another function, `apiRoot()` read by two of them, resolves to one
   * node) is accounted for only when every one of them is.
   */
  closes(node: Node): boolean {
    const fns = this.helperOf.get(node) ?? [];
    return fns.length > 0 && fns.every((fn) => this.closed(fn));
  }

  /** The name of a helper the node is a part of that only code outside the run calls. */
  outsideName(node: Node): string | undefined {
    const outward = (this.helperOf.get(node) ?? []).find((fn) => this.calledOutside.has(fn));
    return outward && this.calledOutside.get(outward);
  }

  /** Every call of a helper was planned (its callers are the sites). */
  closed(fn: Node): boolean {
    const memo = this.memo.get(fn);
    if (memo !== undefined) return memo;
    this.memo.set(fn, false);
    // (Its calls made as the transport of another helper whose every call was planned are planned too.)
    const closed = this.uses(fn).every((u) => this.viaClosedHelper(u));
    this.memo.set(fn, closed);
    return closed;
  }

  /** `r` calls the helper from inside itself handing on, unchanged, every parameter its request is built from. */
  private recalls(fn: Node, r: Node): boolean {
    const sig = this.a.helperCache.get(fn);
    const call = Node.isPropertyAccessExpression(r.getParent()) ? r.getParent()!.getParent() : r.getParent();
    if (!sig || sig.kind !== "helper" || !call || !Node.isCallExpression(call)) return false;
    const indexes = new Set([sig.pathIndex, sig.optionsIndex, sig.methodIndex, sig.bodyIndex, sig.queryIndex].filter((i): i is number => i !== undefined));
    return [...indexes].every((i) => handsOnOwn(call, fn, i));
  }

  /**
   * `send(path, { method: "DELETE" })` as the request of a verb method (`delete(path) { return send(…) }`)
   * whose every call is planned: that call is accounted for by them. A method's declaration in an
   * interface the object implements (`delete(path: string): Promise<void>`) is no call at all.
   */
  private viaClosedHelper(use: Node): boolean {
    const up = use.getParent();
    if (up && (Node.isMethodSignature(up) || Node.isPropertySignature(up)) && up.getNameNode() === use) return true;
    if (!up || !Node.isCallExpression(up) || up.getExpression() !== use) return false;
    const outer = runningFunction(up);
    const sig = outer && this.a.helperCache.get(outer);
    return !!outer && !!sig && sig.transport === up && this.closed(outer);
  }

  /** The uses of a helper that are not planned calls. */
  uses(fn: Node): Node[] {
    const out: Node[] = [];
    // (A function held by a plain object is used as `obj.key`: the key's references.)
    const held = objectHeldName(fn);
    const named = held ?? ((fn as any).getNameNode?.() as Node | undefined);
    if ((Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) || held) && named) {
      // A method called on an instance that cannot hold this base (another API's) does not use it.
      const key = this.a.helperCache.get(fn)?.receiverKey;
      for (const r of references(named)) {
        if (key && Node.isPropertyAccessExpression(r) && !receiverHolds(this.a, unwrapExpression(r.getExpression()), key, this.literal())) continue;
        // A retry calling the helper again with what it was given: the request of the call that entered it.
        if (this.recalls(fn, r)) continue;
        this.follow(r, out);
      }
    } else this.follow(fn, out);
    // Exported with no use in the project: its callers are outside the run, and send v1 paths.
    const name = functionName(fn) ?? objectHeldName(fn);
    // (A method over a field holding a client, not the base itself, is left to the client's own uses.)
    const receiver = this.a.helperCache.get(fn)?.receiverKey;
    if (name && exportedOutward(fn) && (!receiver || baseField(fn, receiver)) && !references(name).length) {
      out.push(name);
      this.calledOutside.set(fn, name.getText());
    }
    return out;
  }
}
