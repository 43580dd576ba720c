// One interface for every HTTP client library the engine recognises: which imports are the
// library, which member calls are requests, which calls make an instance carrying a base, and
// where a call keeps its URL, options, method and body.
import type { Node, CallExpression } from "../../ts-morph.ts";
import type { HttpMethod } from "../../../mappings/index.ts";
import type { HelperSignature } from "../../types.ts";
import type { Analysis, WrapperSignature } from "../state.ts";
import type { External } from "../values.ts";

export type Lib = "fetch" | "undici-request" | "axios" | "got" | "ky" | "openapi-fetch" | "superagent" | "wretch" | "convention";

export type Root =
  | { lib: Lib; instance?: External; wrapper?: WrapperSignature; /** got: the instance's default `responseType` (`got.extend({ responseType: "json" })`). */ responseType?: string }
  | { lib: "undici-ns" }
  | { lib: "helper"; sig: HelperSignature; name: string; /** Handed in as a parameter other code may fill with another function (handed-function.ts). */ handedIn?: string };

export interface HttpCall {
  call: CallExpression;
  lib: Lib | "helper";
  helper?: HelperSignature;
  urlNode?: Node;
  external?: External;
  method: { value?: HttpMethod; node?: Node; kind: "literal" | "default" | "verb" | "unknown"; /** Why an unknown method is not known, when something specific decides it. */ why?: string };
  /** Options object where a body / method could be added. */
  options?: Node;
  /** A request helper's options argument built elsewhere (not an object literal here): its body and query are not seen. */
  opaqueOptions?: Node;
  body?: { node: Node; stringify: boolean; prop?: Node };
  /** Where a fixed body goes for this library. */
  bodyKey: "body" | "data" | "json" | "arg";
  /** A call by convention of a function the codemod knows nothing of, with no body in sight: `bodyKey` is a guess, so no body is added. */
  bodyKeyUnknown?: boolean;
  /** Nodes the callee was resolved through (they are followed uses when the site is planned). */
  trail: Node[];
  /** Set when the callee is a project's wrapper around the library. */
  wrapper?: WrapperSignature;
  /** A call by convention: how its answer is read (`.data`, `.json()`, the value itself; undefined: not known). */
  style?: "data" | "json" | "body";
  /** A call by convention whose library declares the body under another member of its answer than axios's `data` (`result`): style "data" reads it there; got's `body` when its response type is JSON. */
  answerKey?: string;
  /** That member may be null or undefined (`result: T | null`): the body is not destructured from it. */
  answerNullable?: boolean;
  /** A call by convention answering a response object whose body the code reads as text through this method (`readBody`), as fetch's `text()`. */
  textReader?: string;
  /** The call answers an RxJS Observable emitting the body, the axios response, or something not known (observable-flow.ts follows it). */
  observable?: import("../observable-answer.ts").Emits;
  /** A request builder's chain (superagent): the request call, its `.send` / `.query` / type links, and links the codemod cannot read. */
  builder?: { request: CallExpression; sends: CallExpression[]; queries: CallExpression[]; types: CallExpression[]; unread: { name: string; node: Node }[] };
  /** A wretch chain (wretch.ts): the verb link sending the request, the links that shape it, and the response chain after it. */
  wretch?: WretchChain;
  /** Where the answer goes that the codemod does not follow (a known convention's, e.g. RTK Query's hooks): records that differ are marked. */
  answerUnseen?: string;
  /** Sent through a request function handed in by callers the run cannot all see: why the call stays marked. */
  handedIn?: string;
  /** An injected transport given no request options, its answer read: why sending is in doubt (the site is marked). */
  injectedDoubt?: string;
  /** A convention's own place to unwrap a v2 list (RTK Query's `transformResponse`): the edits, or undefined when it cannot. */
  unwrapList?: (wrapper: string) => import("../../types.ts").Edit[] | undefined;
  /** A convention's own edits for its answer (RTK Query's response transforms), made on the site; or why it cannot make them. */
  answerEdits?: (site: import("../state.ts").Site) => string | undefined;
  /** A convention's own way to keep a marked call on the declared v1 base. */
  ownRedirect?: () => import("../v1-redirect.ts").Redirect | undefined;
  /**
   * The library code that serialises a plain-object body as JSON itself and says so (Content-Type),
   * for the calls by convention that have one (other libraries are known by `lib`). Named, as the
   * engine treats the two differently beyond that: an ofetch call's string body still has its
   * Content-Type checked, and ofetch has its own failure path (ofetch-errors.ts); an RTK Query
   * endpoint's headers are built in fetchBaseQuery's `prepareHeaders`, which the codemod does not
   * read, so none is checked.
   */
  /** A data-fetching hook calling its fetcher with the key (`useSWR(key, fetcher)`): the answer is the hook's `data`, and the list is unwrapped in the fetcher it is given. */
  hook?: { lib: "swr"; key: Node; fetcher: Node; /** The fetcher is `<SWRConfig value={{ fetcher }}>`'s (the hook gives none). */ global?: boolean };
  jsonSerialiser?: "ofetch" | "fetchBaseQuery" | "apollo" | "route-config";
  /** A generated client's request config (`{ url: '/pods/{podId}', method, path, query, body }`: route-config.ts): its URL is a route template. */
  routeConfig?: boolean;
  /** axios: what the instance's response interceptors make the call resolve to (`body`: the parsed body itself, as `(r) => r.data` gives). */
  interceptor?: import("../response-interceptors.ts").InterceptedAnswer;
}

/** A wretch request's chain, read from the `wretch(…)` call through the verb link to the link reading the answer. */
export interface WretchChain {
  /** The `wretch(…)` call the chain starts from. */
  root: CallExpression;
  verb: CallExpression;
  queries: CallExpression[];
  /** `.json(x)`, `.body(x)`, `.formData(x)`, `.formUrl(x)` links before the verb. */
  bodies: CallExpression[];
  /** Links setting the Content-Type (`.content(t)`, `.headers({ "Content-Type": t })`). */
  types: CallExpression[];
  /** The callbacks given the WretchError: `.catcher(code, cb)` on the request, `.notFound(cb)`, `.error(409, cb)` on the answer. */
  catchers: Node[];
  /** The chain already has the error body parsed as JSON (`.errorType("json")`) or transformed (`.customError(…)`). */
  errorTyped: boolean;
  /** The link reading the answer (`.json()`, `.json(cb)`, `.text()`, `.res()`). */
  reader?: { name: string; call: CallExpression };
  unread: { name: string; node: Node }[];
  /** What the chain does that the codemod cannot follow (an unknown addon, a URL over several links). */
  problems: { reason: string; brief: string }[];
}

/** Where one call of a library keeps its parts. */
export interface CallParts {
  urlNode?: Node;
  options?: Node;
  external?: External;
  bodyKey: HttpCall["bodyKey"];
  /** A body passed as its own argument (`axios.post(url, data)`). */
  bodyArg?: Node;
  /** The call re-sends a request made elsewhere (`http(error.config)` in a retry): not a site of its own. */
  resend?: boolean;
}

export interface Transport {
  lib: Lib;
  /** The root an import of `module` (export `name`, "default" or "*") stands for. */
  fromModule(module: string, name: string): Root | undefined;
  /** Member names that are requests on the library or an instance (`get`, `GET`), with the verb they imply. */
  verb?(name: string): { verb?: string } | undefined;
  /** `axios.create({ baseURL })`, `got.extend({ prefixUrl })`, `createClient({ baseUrl })`: the config key of the base. */
  instanceBaseKeys?(method: string | undefined): string[] | undefined;
  /** Where a call keeps its URL, options and body (`member`: the method called, `request` in `api.request(…)`). */
  parts(a: Analysis, args: Node[], verb: string | undefined, instance: External | undefined, member?: string): CallParts;
}
