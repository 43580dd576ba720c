// A call that gives its helper a base of its own (`viaTarget(mirror, path)` with `mirror.apiBase`
// set to `https://runpod-mirror.internal/v1`): where that base is a v1 API at another host (a
// mirror, or a v2-bridge gateway's /v1), the call's v2 paths would be sent to a v1 API. The site
// is marked and keeps its v1 shape (its own base stays as it is).
import type { Node } from "../ts-morph.ts";
import { V1_HOST } from "../../mappings/bases.ts";
import type { Analysis } from "./state.ts";
import type { HttpCall } from "./transports/index.ts";
import type { Problems } from "./rewrites/problems.ts";
import { optionsOf } from "./evaluate/value.ts";
import { givenSlot } from "./helper-redirect.ts";

const V1_PATH = /\/v1\/?$/;

export function givenV1Elsewhere(a: Analysis, http: HttpCall, problems: Problems): void {
  const fn = http.lib === "helper" ? (http.helper?.fn as Node | undefined) : undefined;
  const anchor = fn && a.helperAnchors.get(fn);
  const slot = anchor && givenSlot(fn!, anchor.node, http.call);
  if (!slot) return;
  const value = slot.key === undefined ? a.evaluator.evaluate(slot.arg) : a.evaluator.property(slot.arg, a.evaluator.evaluate(slot.arg), slot.key);
  const other = optionsOf(value).find((o) => o.kind === "string" && V1_PATH.test(o.text) && !o.text.includes(V1_HOST));
  if (!other || other.kind !== "string") return;
  problems.push({
    reason: `the call gives the helper its own base (${other.text}), a v1 API at another host (a mirror or a gateway's /v1): v2 paths sent there fail`,
    advice: "point that base at a v2 API (or a v2-bridge gateway's /v2), then migrate this call",
  });
}
