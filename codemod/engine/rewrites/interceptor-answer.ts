// Problem: the call's instance has a response interceptor whose result the codemod cannot read
// (anything but `(r) => r` or `(r) => r.data`), so what the call resolves to is the interceptor's
// form: its list is not unwrapped and its record's reads are not checked there. Every site on that
// instance is marked, directly or through the project's helpers and wrappers around it.
import { Node } from "../../ts-morph.ts";
import type { Analysis } from "../state.ts";
import type { HttpCall } from "../transports/index.ts";
import { readCall } from "../call-reader.ts";
import type { Problems } from "./problems.ts";

export function interceptorProblems(a: Analysis, http: HttpCall): Problems {
  const why = unreadInterceptor(a, http, 0);
  if (!why) return [];
  return [{
    reason: `${why}, so what this call resolves to is not known: its list is not unwrapped and its record's reads are not checked`,
    brief: `${why}: its answer is not read`,
    advice: "convert the v2 answer where the interceptor reads it (docs/mapping.md), or migrate this call by hand",
  }];
}

function unreadInterceptor(a: Analysis, http: HttpCall, depth: number): string | undefined {
  if (http.interceptor?.form === "unknown") return http.interceptor.why;
  if (depth > 4 || http.lib !== "helper") return undefined;
  const transport = http.helper?.transport as Node | undefined;
  const inner = transport && Node.isCallExpression(transport) ? readCall(a, transport) : undefined;
  return inner ? unreadInterceptor(a, inner, depth + 1) : undefined;
}
