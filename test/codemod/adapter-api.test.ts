// What the engine asks of the adapter: whether it holds a conversion (and why not), the call that
// wraps a value at a site, and the import line with the right relative specifier.
import { describe, expect, it } from "vitest";
import { adapterCall, adapterCoverageReasons, adapterCovers, adapterImport, adapterOmissions } from "../../codemod/adapter/index.ts";
import { emulationSides } from "../../codemod/adapter/emulation-sides.ts";
import { mappingTable } from "../../codemod/adapter/table.ts";

describe("adapterCovers", () => {
  it("holds plain bodies, records, lists and problems", () => {
    for (const [kind, key] of [
      ["requestBody", "CreateNetworkVolume"],
      ["requestBody", "CreateContainerRegistryAuth"],
      ["record", "networkVolume"],
      ["record", "GetContainerRegistryAuth"],
      ["record", "UpdateNetworkVolume#post-update"],
      ["list", "ListPods"],
      ["recordList", "ListNetworkVolumes"],
      ["recordList", "EndpointBilling"],
      ["problem", "CreatePod"],
    ] as const) {
      expect(adapterCovers(kind, key), `${kind} ${key}`).toBe(true);
    }
  });

  it("leaves out what needs extra calls, the catalog or a converter without a run-time form, saying which", () => {
    expect(adapterCovers("requestBody", "CreatePod")).toBe("needs the gateway's extra calls or lookups (gpuTypePriority, cpuFlavorPriority, lockOnCreate) (+3 more)");
    expect(adapterCoverageReasons("requestBody", "CreatePod")).toEqual(
      expect.arrayContaining([expect.stringMatching(/podMounts cannot be written for run-time values/), expect.stringMatching(/gpuTypeIds is left out \(or empty\)/), expect.stringMatching(/^locked: /)]),
    );
    expect(adapterCovers("requestBody", "UpdateNetworkVolume")).toBe("needs the gateway's extra calls or lookups (emptyUpdateAsRead)");
    expect(adapterCovers("requestBody", "CreateEndpoint")).toMatch(/gpuPoolsFromCatalog/);
    expect(adapterCoverageReasons("record", "endpoint")).toEqual(["gpuTypeIds: endpointGpu needs the live GPU catalog"]);
    expect(adapterCovers("record", "GetPod")).toMatch(/^needs the gateway's extra calls or lookups \(hourlyRateFromCatalog, gpuDetailsFromCatalog\)/);
    expect(adapterCovers("list", "PodBilling")).toBe("needs the gateway's extra calls or lookups (podBillingByGpuType)");
    expect(adapterCovers("list", "NetworkVolumeBilling")).toBe("needs the gateway's extra calls or lookups (sumPerBucket)");
    // The list unwraps; its records are still v2 ones, which the adapter cannot translate for pods.
    expect(adapterCovers("recordList", "ListPods")).not.toBe(true);
  });

  it("says what does not apply, and what it does not know", () => {
    expect(adapterCovers("requestBody", "StartPod")).toBe('StartPod takes no v1 body (v2\'s is fixed: {"action":"start"})');
    expect(adapterCovers("requestBody", "GetPod")).toBe("GetPod takes no request body");
    expect(adapterCovers("record", "DeletePod")).toBe("DeletePod answers no record");
    expect(adapterCovers("list", "GetPod")).toBe("GetPod answers one record, not a list");
    expect(adapterCovers("requestBody", "NoSuchThing")).toBe('unknown operation "NoSuchThing"');
  });

  it("knows the side of every emulation the table names (a new one must be classified)", () => {
    expect(Object.keys(emulationSides).sort()).toEqual([...mappingTable.emulations].sort());
  });
});

describe("adapterCall", () => {
  it("wraps the expression in the conversion for its kind", () => {
    expect(adapterCall("requestBody", "CreateNetworkVolume", "args")).toBe("v2Adapter.toV2Body.CreateNetworkVolume(args)");
    expect(adapterCall("record", "GetNetworkVolume", "await res.json()")).toBe("v2Adapter.toV1Record.networkVolume(await res.json())");
    expect(adapterCall("record", "registry", "r")).toBe("v2Adapter.toV1Record.registry(r)");
    expect(adapterCall("list", "ListPods", "data")).toBe('v2Adapter.unwrapList(data, "ListPods")');
    expect(adapterCall("recordList", "ListContainerRegistryAuths", "data")).toBe('v2Adapter.toV1List(data, "ListContainerRegistryAuths")');
    expect(adapterCall("problem", "GetPod", "body", "bridge")).toBe("bridge.v1Message(body)");
  });

  it("refuses a conversion the adapter does not hold, with the reason", () => {
    expect(() => adapterCall("requestBody", "CreatePod", "body")).toThrow(/does not hold requestBody CreatePod: needs the gateway's extra calls/);
    expect(() => adapterCall("record", "PodBilling", "p")).toThrow(/does not hold record PodBilling: needs the gateway's extra calls/);
    // A pod record without its GPU details and hourly rate: the site's to allow (adapterOmissions), not exact coverage.
    const catalogFields = ["gpu.displayName", "gpu.securePrice", "gpu.communityPrice", "machine.gpuDisplayName", "costPerHr", "adjustedCostPerHr"];
    expect(adapterCovers("record", "pod")).toBe("gpu.displayName, gpu.securePrice, gpu.communityPrice, machine.gpuDisplayName: gpuDetails needs the live GPU catalog (+1 more)");
    expect(adapterOmissions("record", "GetPod")).toEqual(catalogFields);
    expect(adapterCall("record", "GetPod", "p")).toBe("v2Adapter.toV1Record.pod(p)");
    expect(adapterCall("record", "GetTemplate", "t")).toBe("v2Adapter.toV1Record.template(t)");
    // A pod action's answer: v1 documents none, v2 answers the updated pod (the table's v2AnswerRecord).
    expect(adapterOmissions("record", "StopPod")).toEqual(catalogFields);
    expect(adapterCall("record", "StopPod", "p")).toBe("v2Adapter.toV1Record.pod(p)");
    expect(() => adapterCall("record", "DeletePod", "p")).toThrow(/DeletePod answers no record/);
  });
});

describe("adapterImport", () => {
  it("ES modules: relative specifier, TypeScript extension as the project writes it, JavaScript always with its own", () => {
    const from = "/app/src/app/api/pods/route.ts";
    const ts = "/app/src/v2-bridge-adapter.ts";
    expect(adapterImport(from, ts, "esm")).toBe('import * as v2Adapter from "../../../v2-bridge-adapter";');
    expect(adapterImport(from, ts, "esm", { explicitExtension: true })).toBe('import * as v2Adapter from "../../../v2-bridge-adapter.js";');
    expect(adapterImport(from, ts, "esm", { explicitExtension: ".ts" })).toBe('import * as v2Adapter from "../../../v2-bridge-adapter.ts";');
    expect(adapterImport("/app/src/index.ts", ts, "esm")).toBe('import * as v2Adapter from "./v2-bridge-adapter";');
    expect(adapterImport("/app/server.mjs", "/app/lib/v2-bridge-adapter.js", "esm")).toBe('import * as v2Adapter from "./lib/v2-bridge-adapter.js";');
  });

  it("CommonJS: require with the .cjs name, or TypeScript's import = require", () => {
    expect(adapterImport("/app/bin/cli.js", "/app/v2-bridge-adapter.cjs", "cjs")).toBe('const v2Adapter = require("../v2-bridge-adapter.cjs");');
    expect(adapterImport("/app/src/a.ts", "/app/src/v2-bridge-adapter.ts", "cjs", { binding: "bridge" })).toBe('import bridge = require("./v2-bridge-adapter");');
  });
});
