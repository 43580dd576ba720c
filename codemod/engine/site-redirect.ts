// How a call kept on v1 (marked) keeps a v1 base of its own once its base flips to v2: in its own
// URL or options, or through its request helper's new base parameter (v1-redirect.ts writes it).
import { Node } from "../ts-morph.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import { unwrapExpression, type LocatedUrl, type Part } from "./urls.ts";
import { axiosRedirect, openapiFetchRedirect, optionRedirect, ownOptionRedirect, prefixUrlRedirect, siteBaseRedirect, v1Redirect, type Redirect } from "./v1-redirect.ts";
import { perRequestBaseKey } from "./transports/convention.ts";
import { axiosForm } from "./transports/axios-form.ts";
import { builderRedirect, threadedBaseRedirect, typedInjection } from "./threaded-base.ts";
import { forwardedOptionsRedirect } from "./forwarded-base.ts";
import { optionsOf } from "./evaluate/value.ts";
import { helperRedirect } from "./helper-redirect.ts";
import { baseArgumentRedirect } from "./base-argument.ts";
import { localBaseExpression } from "./local-base.ts";
import { kyDerivedBase } from "./ky-derived-base.ts";
import { heldBaseRedirect } from "./held-base-redirect.ts";
import { swrFetcherRedirect } from "./swr-kept-fetcher.ts";
import { descriptorRedirect } from "./descriptor-sites.ts";

/** How a marked call keeps a v1 base of its own: in its own URL, or through its helper's new base parameter. */
export function redirectFor(a: Analysis, http: HttpCall, url: LocatedUrl, parts: Part[]): Redirect | undefined {
  if (http.ownRedirect) return http.ownRedirect();
  // A hook over a request helper (`useSWR(path, fetcher)`): the library calls the fetcher with the key alone; it is given one bound to the v1 base.
  if (http.hook && http.lib === "helper") {
    const r = swrFetcherRedirect(a, http);
    return "why" in r ? undefined : r;
  }
  if (http.lib === "axios" && http.external?.node && !parts.some((p) => p.node === http.external!.node)) {
    const verb = http.method.kind === "verb" ? http.method.value : undefined;
    return axiosRedirect(http.call, verb, http.external.value, http.options);
  }
  if (http.lib === "openapi-fetch" && http.external?.node && !parts.some((p) => p.node === http.external!.node)) return openapiFetchRedirect(http.call, http.external.value, http.options);
  // ky and got take `prefixUrl` per request too (options are always the second argument).
  if ((http.lib === "ky" || http.lib === "got") && http.external?.node && !parts.some((p) => p.node === http.external!.node)) {
    const r = prefixUrlRedirect(http.call, http.external.value, http.options);
    const callerSet = r && http.lib === "ky" ? kyDerivedBase(http.call, http.options) : undefined;
    return r && callerSet ? { ...r, callerSet } : r;
  }
  // An instance with axios's form (transports/axios-form.ts: declared, installed, named or read so) takes axios's per-request `baseURL`.
  if (factoryMadeAxiosLike(http, parts) && axiosForm(a, http.call).axios) {
    const verb = (unwrapExpression(http.call.getExpression()) as Node & { getName(): string }).getName();
    return axiosRedirect(http.call, verb, http.external!.value, http.options);
  }
  // An ofetch instance called directly takes its base per request too (`runpod(path, { …, baseURL: RUNPOD_V1_BASE })`).
  const perRequest = http.lib === "convention" && http.external?.node && !parts.some((p) => p.node === http.external!.node) ? perRequestBaseKey(a, http) : undefined;
  if (perRequest) return optionRedirect(http.call, perRequest, undefined, http.external!.value, http.options);
  // The call's own option names a shared base (`$fetch(path, { baseURL: REST })`): it reads the v1 one instead.
  const own = http.lib === "convention" && http.external?.node?.getFirstAncestor((n) => n === http.call) ? unwrapExpression(http.external.node) : undefined;
  // (Only a name: an expression holding the literal itself, `env ?? "…/v1"`, serves this call alone and stays v1 as written.)
  if (own && (Node.isIdentifier(own) || Node.isPropertyAccessExpression(own))) return ownOptionRedirect(own, http.external!.value);
  if (http.lib !== "helper") return v1Redirect(url, parts, http.call) ?? descriptorRedirect(a, http, url, parts) ?? computedBaseRedirect(a, http, url, parts) ?? heldBaseRedirect(a, http, url, parts);
  const fn = http.helper?.fn as Node | undefined;
  // Reached through a typed constructor parameter (`constructor(private request: RequestFn)`): an
  // extra argument would not fit the declared function type.
  if (typedInjection(http.call)) return undefined;
  const anchor = fn && a.helperAnchors.get(fn);
  if (!anchor) return forwardedOptionsRedirect(a, http) ?? threadedBaseRedirect(a, http);
  // What the call passes whole for the helper's base slot, read by the evaluator: a known string there is its own base.
  const carriesBase = (arg: Node, key: string | undefined) => optionsOf(key === undefined ? a.evaluator.evaluate(arg) : a.evaluator.property(arg, a.evaluator.evaluate(arg), key)).some((o) => o.kind === "string");
  return baseArgumentRedirect(a, http, anchor.value) ?? helperRedirect(fn!, anchor.node, anchor.value, http.call, undefined, carriesBase) ?? forwardedOptionsRedirect(a, http);
}

/** A verb call on an instance a factory made with its base under `baseURL`, not given in the call itself. */
function factoryMadeAxiosLike(http: HttpCall, parts: Part[]): boolean {
  return http.lib === "convention" && !!http.external?.node && !parts.some((p) => p.node === http.external!.node) && factoryKey(http.external!.node!) === "baseURL" && !http.external!.node!.getFirstAncestor((n) => n === http.call);
}

/** Why a marked call on a factory's instance cannot keep a v1 base of its own: nothing says the instance is axios's, or the project's reads say it is not. */
export function factoryFormWhy(a: Analysis, http: HttpCall, parts: Part[]): string | undefined {
  if (!factoryMadeAxiosLike(http, parts)) return undefined;
  const form = axiosForm(a, http.call);
  return form.axios ? undefined : form.why;
}

/** A base computed in another function (`${apiBase(env)}/pods`): replaced where the call's own URL takes it. */
function computedBaseRedirect(a: Analysis, http: HttpCall, url: LocatedUrl, parts: Part[]): Redirect | undefined {
  const first = parts[0];
  if (!http.urlNode || !url.anchor?.node || first?.kind !== "base" || first.node !== url.anchor.node) return undefined;
  const local = localBaseExpression(a, http.urlNode, first.node, http.call);
  return local && local !== first.node ? siteBaseRedirect(local, url.anchor.value) : builderRedirect(a, http);
}

/** The option key a base is given under where the client is made (`createAxios({ baseURL: … })` → `baseURL`). */
function factoryKey(base: Node): string | undefined {
  const key = base.getParent();
  return key && Node.isPropertyAssignment(key) ? key.getName() : undefined;
}
