// The uses of a client made from the base, for the do-no-harm check (follow-uses.ts follows the
// base to them), and whether each is planned. Two kinds of client:
// - made by outside code (`fetchBaseQuery({ baseUrl })`, an SDK's `new Client({ baseUrl })`): the
//   engine cannot see what the client does with the base, so each of its uses must be a planned
//   call; any other use (handed on, a member other than a request method) cannot be followed;
// - made by a class or factory of the project the option was followed into: the option's uses are
//   inside it (followed there), so calling the made object's own methods is not a use.
import type { ObjectBindingPattern } from "ts-morph";
import { Node } from "../ts-morph.ts";
import { unwrapExpression } from "./urls.ts";
import { BASE_KEYS } from "./transports/convention.ts";
import { shortExpression } from "./expression-name.ts";

/** Members that send a request: calling one on an object made with the base is a use of it. */
export const REQUEST_METHODS = /^(get|post|put|patch|delete|del|head|options|request|fetch|send|call)$/i;

/** Members of a client that configure it rather than send a request (`api.interceptors.request.use`). */
const CLIENT_CONFIG = new Set(["interceptors", "defaults", "hooks"]);

/**
 * The step of a followed value's property path that stands for a client outside code made from the
 * base under the option `key` (it cannot clash with a real key).
 */
const CLIENT = "\0client:";
export const clientStep = (key: string): string => CLIENT + key;
/** The base option's key when the path step stands for a client made from the base. */
export const clientKey = (step: string | undefined): string | undefined => (step?.startsWith(CLIENT) ? step.slice(CLIENT.length) : undefined);
/** The followed value sits in a client made from the base. */
export const insideClient = (path: string[]): boolean => path.some((step) => clientKey(step) !== undefined);

/**
 * The base given to outside code (`holder`, a call or `new` the project does not declare) under a
 * base-like key makes a client: its uses must be planned calls. Not a schema entry built around it
 * (`z.string().default(BASE)`), nor a plain object of the language's (`Object.freeze({ baseURL })`).
 */
export function makesClient(holder: Node, key: string, value: Node, path: string[]): boolean {
  const maker = unwrapExpression((holder as any).getExpression()).getText();
  return !path.length && BASE_KEYS.includes(key) && !Node.isCallExpression(unwrapExpression(value)) && !/^(Object|Reflect|JSON)\./.test(maker);
}

/** Why a client made from the base, handed to outside code (`createApi({ baseQuery: fetchBaseQuery(…) })`), is not followed. */
export function handedOnWhy(holder: Node): string {
  return `a client made from the base, handed to ${shortExpression((holder as any).getExpression(), 24)}(…)`;
}

/** What the follower gives the client checks. */
export interface ClientSink {
  /** A planned site accounts for the node. */
  accounted(node: Node): boolean;
  /** The base option read back from the client: followed on as the value itself. */
  readBack(node: Node): void;
  /** A use that cannot be followed (and why, where the node alone does not say it). */
  unfollowed(node: Node, why?: string): void;
}

/**
 * A use of a client outside code made from the base (`outer`, under its parent `p`): a planned
 * request call is accounted for (the reference is in its trail); a request method's call no site
 * planned, or any other member, is a use that cannot be followed. Variables, fields, returns and
 * arguments are left to the follower. True when handled.
 */
export function clientUse(outer: Node, p: Node, key: string, sink: ClientSink): boolean {
  if (Node.isPropertyAccessExpression(p) && p.getExpression() === outer) {
    // The option read back (`Object.freeze({ baseURL })` then `CONFIG.baseURL`): the value itself.
    if (p.getName() === key) return sink.readBack(p), true;
    if (CLIENT_CONFIG.has(p.getName()) || sink.accounted(p)) return true;
    const call = p.getParent();
    // Another option read as a value (`config.timeoutMs`) sends nothing; a member called or reached through (`sdk.pods.list()`) may.
    const through = call && ((Node.isCallExpression(call) && call.getExpression() === p) || ((Node.isPropertyAccessExpression(call) || Node.isElementAccessExpression(call)) && call.getExpression() === p));
    if (!through && !REQUEST_METHODS.test(p.getName())) return true;
    if (call && Node.isCallExpression(call) && call.getExpression() === p && sink.accounted(call)) return true;
    const use = call && Node.isCallExpression(call) && call.getExpression() === p ? call : p;
    return sink.unfollowed(use, "not a request the codemod knows, on a client made from the base"), true;
  }
  if (Node.isElementAccessExpression(p) && p.getExpression() === outer) return sink.unfollowed(p), true;
  return false;
}

/** A client's members taken out (`const { get } = client`): uses not followed (its base option, `key`, read back is the value). */
export function membersTaken(pattern: ObjectBindingPattern, key: string): Node[] {
  return pattern.getElements().filter((el) => (el.getPropertyNameNode()?.getText() ?? el.getName()) !== key);
}

/** The objects classes and factories of the project made from the base's option, where the option was followed inside. */
export class ProjectClients {
  /** The made objects (`new Client({ baseUrl })`, `podsClient({ baseUrl })`). */
  private readonly made = new Set<Node>();
  /** The classes and factory functions the option was followed into. */
  private readonly makers = new Set<Node>();

  add(made: Node, maker: Node): void {
    this.made.add(made);
    this.makers.add(maker);
  }

  /** A method declared inside a class or factory the option was followed into: its calls are not uses. */
  declares(method: Node): boolean {
    for (let n: Node | undefined = method; n; n = n.getParent()) if (this.makers.has(n)) return true;
    return false;
  }

  /** The reference stands for an object the project made (`client` declared as `new Client(…)`). */
  holds(ref: Node): boolean {
    if (this.made.has(ref)) return true;
    if (!Node.isIdentifier(ref) && !Node.isPropertyAccessExpression(ref)) return false;
    try {
      for (const d of ref.getSymbol()?.getDeclarations() ?? []) {
        const init = (Node.isVariableDeclaration(d) || Node.isPropertyDeclaration(d)) ? d.getInitializer() : undefined;
        if (init && this.made.has(unwrapAwait(init))) return true;
      }
    } catch {
      return false;
    }
    return false;
  }
}

function unwrapAwait(n: Node): Node {
  let x = n;
  while (Node.isAwaitExpression(x) || Node.isParenthesizedExpression(x)) x = x.getExpression();
  return x;
}
