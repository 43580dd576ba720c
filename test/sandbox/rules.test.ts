// Pod and serverless-endpoint rules of the v2 document, each test quoting the sentences it checks
// (exactly as sandbox/rules/accounting.ts holds them): the request that breaks the rule answered as
// the document says (RFC 9457 problem, status), the request that keeps it accepted.
import { beforeAll, describe, expect, it } from "vitest";
import { GPU_TYPES } from "../../sandbox/catalog.ts";
import { missingReference, refSuite } from "../helpers/reference.ts";
import { cpuPod, endpoint, expectProblem, gpuPod, quoting, sandboxForRules } from "./rules-helpers.ts";

describe.skipIf(missingReference)(refSuite("v2 document rules in the sandbox: pods and endpoints"), () => {
  const { call } = sandboxForRules();

  describe("pods", () => {
    it(quoting("Exactly one of `gpu` or `cpu` must be set — enforced at the handler layer.", "`name` is always required; supply exactly one of `gpu` or `cpu` to select compute (a GPU or a CPU pod)."), async () => {
      await expectProblem(call("POST", "/v2/pods", gpuPod({ cpu: { id: "cpu3c", vcpuCount: 2 } })), 400, /exactly one of gpu or cpu/);
      await expectProblem(call("POST", "/v2/pods", { name: "n", image: "i" }), 400, /exactly one of gpu or cpu/);
      // A template resolves into container settings only: it does not choose the compute.
      const tpl = await call("POST", "/v2/templates", { name: "compute-less", image: "img:1" });
      await expectProblem(call("POST", "/v2/pods", { name: "t", templateId: tpl.body.id }), 400, /exactly one of gpu or cpu/);
      expect((await call("POST", "/v2/pods", gpuPod())).status).toBe(201);
    });

    it(quoting("CPU pods support container disk and network volumes only; `mounts.persistent` is invalid when `cpu` is set.", "Disallowed on CPU pods."), async () => {
      const body = await expectProblem(call("POST", "/v2/pods", cpuPod({ mounts: { persistent: { size: 20, path: "/workspace" } } })), 400, /mounts\.persistent is invalid on CPU pods/);
      expect(body.errors).toEqual(["/mounts/persistent is not allowed when cpu is set"]);
      const vol = await call("POST", "/v2/network-volumes", { name: "v", size: 10, dataCenter: "EU-RO-1" });
      const withNetwork = await call("POST", "/v2/pods", cpuPod({ mounts: { network: [{ volumeId: vol.body.id, path: "/data" }] } }));
      expect(withNetwork.status).toBe(201);
      // A template's persistent mount is ignored for a CPU pod, as the template rules say.
      const tpl = await call("POST", "/v2/templates", { name: "t", image: "img:1", mounts: { persistent: { size: 20, path: "/workspace" } } });
      const fromTpl = await call("POST", "/v2/pods", { name: "ct", templateId: tpl.body.id, cpu: { id: "cpu3c", vcpuCount: 2 } });
      expect(fromTpl.status).toBe(201);
      expect(fromTpl.body.mounts).toEqual({});
    });

    it(quoting("At-most-one of `persistent` or `network` may be set today (mutually exclusive, enforced at the handler with 400 if both are present).", "Mutually exclusive with NetworkMount."), async () => {
      const vol = await call("POST", "/v2/network-volumes", { name: "v", size: 10, dataCenter: "EU-RO-1" });
      await expectProblem(
        call("POST", "/v2/pods", gpuPod({ mounts: { persistent: { size: 20, path: "/w" }, network: [{ volumeId: vol.body.id, path: "/data" }] } })),
        400,
        /mutually exclusive/,
      );
    });

    describe("PATCH mounts", () => {
      let persistentPod: string;
      let networkPod: string;
      let bare: string;
      let volume: string;
      beforeAll(async () => {
        persistentPod = (await call("POST", "/v2/pods", gpuPod({ mounts: { persistent: { size: 20, path: "/workspace" } } }))).body.id;
        volume = (await call("POST", "/v2/network-volumes", { name: "v", size: 10, dataCenter: "EU-RO-1" })).body.id;
        networkPod = (await call("POST", "/v2/pods", gpuPod({ mounts: { network: [{ volumeId: volume, path: "/data" }] } }))).body.id;
        bare = (await call("POST", "/v2/pods", gpuPod())).body.id;
      });

      it(quoting("- An explicit `network: []` is rejected with 400 (clearing mounts is not supported)."), async () => {
        await expectProblem(call("PATCH", `/v2/pods/${networkPod}`, { mounts: { network: [] } }), 400, /clearing mounts is not supported/);
        const unchanged = await call("PATCH", `/v2/pods/${networkPod}`, { mounts: {} });
        expect(unchanged.body.mounts).toEqual({ network: [{ volumeId: volume, path: "/data" }] });
      });

      it(quoting("- Mount kind is fixed at create — a PATCH that introduces a kind not present at create (persistent on a network pod, network on a persistent pod, or any mount on a previously-mountless pod) is rejected with 400."), async () => {
        await expectProblem(call("PATCH", `/v2/pods/${networkPod}`, { mounts: { persistent: { size: 20, path: "/w" } } }), 400, /mount kind is fixed at create/);
        await expectProblem(call("PATCH", `/v2/pods/${persistentPod}`, { mounts: { network: [{ volumeId: volume, path: "/d" }] } }), 400, /mount kind is fixed at create/);
        await expectProblem(call("PATCH", `/v2/pods/${bare}`, { mounts: { persistent: { size: 20, path: "/w" } } }), 400, /no mount/);
        const resized = await call("PATCH", `/v2/pods/${persistentPod}`, { mounts: { persistent: { size: 40, path: "/workspace" } } });
        expect(resized.body.mounts).toEqual({ persistent: { size: 40, path: "/workspace" } });
      });

      it(quoting("- The `volumeId` of a network mount is immutable; a PATCH that names a different `volumeId` is rejected with 400.", "The underlying `volumeId` is immutable post-create; the mount `path` may be changed via PATCH."), async () => {
        const other = (await call("POST", "/v2/network-volumes", { name: "v2", size: 10, dataCenter: "EU-RO-1" })).body.id;
        await expectProblem(call("PATCH", `/v2/pods/${networkPod}`, { mounts: { network: [{ volumeId: other, path: "/data" }] } }), 400, /immutable/);
        const moved = await call("PATCH", `/v2/pods/${networkPod}`, { mounts: { network: [{ volumeId: volume, path: "/mnt/data" }] } });
        expect(moved.body.mounts).toEqual({ network: [{ volumeId: volume, path: "/mnt/data" }] });
      });
    });

    it(
      quoting(
        "A non-empty set is mutually exclusive with minCudaVersion (400 if both are sent).",
        "Mutually exclusive with a non-empty allowedCudaVersions (400 if both are sent); an explicit `[]` there states no constraint and may accompany this floor.",
        "An explicit `[]` states no constraint, so it may accompany a floor.",
      ),
      async () => {
        await expectProblem(call("POST", "/v2/pods", gpuPod({ gpu: { id: "NVIDIA L4", allowedCudaVersions: ["12.8"], minCudaVersion: "12.4" } })), 400, /mutually exclusive/);
        const floor = await call("POST", "/v2/pods", gpuPod({ gpu: { id: "NVIDIA L4", allowedCudaVersions: [], minCudaVersion: "12.5" } }));
        expect(floor.status).toBe(201);
        expect(floor.body.cudaVersion).toBe("12.8");
        const exact = await call("POST", "/v2/pods", gpuPod({ gpu: { id: "NVIDIA L4", allowedCudaVersions: ["12.4"] } }));
        expect(exact.body.cudaVersion).toBe("12.4");
        await expectProblem(call("POST", "/v2/pods", gpuPod({ gpu: { id: "NVIDIA L4", allowedCudaVersions: ["11.8"] } })), 400, /no instances available .* CUDA 11\.8/);
        // Endpoints: create and update, on the stored result (setting one does not clear the other).
        await expectProblem(call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.8"], minCudaVersion: "12.4" } })), 400, /mutually exclusive/);
        const ep = await call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_24"], allowedCudaVersions: [], minCudaVersion: "12.4" } }));
        expect(ep.status).toBe(201);
        await expectProblem(call("PATCH", `/v2/serverless/${ep.body.id}`, { gpu: { allowedCudaVersions: ["12.8"] } }), 400, /mutually exclusive/);
      },
    );

    it(quoting("Setting one does not clear the other — clear it explicitly in the same patch if the endpoint already carries it.", "A non-empty set and a floor are mutually exclusive (400 if both are sent); an explicit empty set states no constraint and may accompany a floor."), async () => {
      const ep = await call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_24"], minCudaVersion: "12.4" } }));
      await expectProblem(call("PATCH", `/v2/serverless/${ep.body.id}`, { gpu: { allowedCudaVersions: ["12.8"] } }), 400, /mutually exclusive/);
      const swapped = await call("PATCH", `/v2/serverless/${ep.body.id}`, { gpu: { allowedCudaVersions: ["12.8"], minCudaVersion: "" } });
      expect(swapped.status).toBe(200);
      expect(swapped.body.gpu).toMatchObject({ allowedCudaVersions: ["12.8"], minCudaVersion: null });
    });

    it(quoting("Must be valid for the selected CPU flavor and must be a power of two."), async () => {
      await expectProblem(call("POST", "/v2/pods", cpuPod({ cpu: { id: "cpu3c", vcpuCount: 6 } })), 400, /power of two/);
      await expectProblem(call("POST", "/v2/pods", cpuPod({ cpu: { id: "cpu3c", vcpuCount: 64 } })), 400, /allows 2 to 32 vCPUs/);
      expect((await call("POST", "/v2/pods", cpuPod({ cpu: { id: "cpu3c", vcpuCount: 8 } }))).status).toBe(201);
    });

    it(quoting("Requires an NVIDIA GPU and a global-networking-enabled data center (both enforced upstream)."), async () => {
      await expectProblem(call("POST", "/v2/pods", cpuPod({ globalNetworking: true })), 400, /requires an NVIDIA GPU/);
      await expectProblem(call("POST", "/v2/pods", gpuPod({ gpu: { id: "NVIDIA GeForce RTX 3090" }, dataCenterIds: ["EU-SE-1"], globalNetworking: true })), 400, /does not support global networking/);
      const ok = await call("POST", "/v2/pods", gpuPod({ globalNetworking: true }));
      expect(ok.status).toBe(201);
      expect(ok.body.globalNetworking.enabled).toBe(true);
      const cpu = await call("POST", "/v2/pods", cpuPod());
      await expectProblem(call("PATCH", `/v2/pods/${cpu.body.id}`, { globalNetworking: true }), 400, /requires an NVIDIA GPU/);
    });

    it("\"Some changes apply immediately while others (e.g. `globalNetworking`) take effect on the pod's next start/restart\" (UpdatePod)", async () => {
      const pod = await call("POST", "/v2/pods", gpuPod({ globalNetworking: false }));
      expect(pod.body.globalNetworking.enabled).toBe(false);
      const patched = await call("PATCH", `/v2/pods/${pod.body.id}`, { globalNetworking: true, name: "renamed" });
      expect(patched.status).toBe(200);
      expect(patched.body.name).toBe("renamed");
      expect(patched.body.globalNetworking.enabled).toBe(false);
      expect((await call("GET", `/v2/pods/${pod.body.id}`)).body.globalNetworking.enabled).toBe(false);
      const restarted = await call("POST", `/v2/pods/${pod.body.id}/action`, { action: "restart" });
      expect(restarted.body.globalNetworking.enabled).toBe(true);
    });

    it(quoting("The template is a one-time source of settings: later template edits do not affect the pod, and the created pod does not retain a link to the template (`template` stays null)."), async () => {
      const tpl = await call("POST", "/v2/templates", { name: "t", image: "img/t:1", env: { A: "1" } });
      const pod = await call("POST", "/v2/pods", { name: "ft", templateId: tpl.body.id, gpu: { id: "NVIDIA L4" } });
      expect(pod.body).toMatchObject({ image: "img/t:1", template: null });
      await call("PATCH", `/v2/templates/${tpl.body.id}`, { image: "img/t:2" });
      expect((await call("GET", `/v2/pods/${pod.body.id}`)).body).toMatchObject({ image: "img/t:1", template: null });
      const patched = await call("PATCH", `/v2/pods/${pod.body.id}`, { templateId: tpl.body.id, env: { B: "2" } });
      expect(patched.body).toMatchObject({ image: "img/t:2", template: null, env: { A: "1", B: "2" } });
    });

    it(quoting("Must be one of your templates or a public template (unknown or inaccessible ID → 404); must not be a serverless template (→ 422).", "The template may be one of your own or a public catalog template — see `GET /v2/catalog/templates` (unknown or inaccessible ID → 404) — and must not be a serverless template (→ 422)."), async () => {
      const worker = await call("POST", "/v2/templates", { name: "w", image: "img/w:1", serverless: true });
      await expectProblem(call("POST", "/v2/pods", { name: "x", templateId: worker.body.id, gpu: { id: "NVIDIA L4" } }), 422, /serverless template/);
      const pod = await call("POST", "/v2/pods", gpuPod());
      await expectProblem(call("PATCH", `/v2/pods/${pod.body.id}`, { templateId: worker.body.id }), 422, /serverless template/);
      await expectProblem(call("PATCH", `/v2/pods/${pod.body.id}`, { templateId: "nope" }), 404, /not found/);
      await expectProblem(call("POST", "/v2/pods", { name: "x", templateId: "nope", gpu: { id: "NVIDIA L4" } }), 404, /not found/);
      expect((await call("POST", "/v2/pods", { name: "pub", templateId: "runpod-torch-v240", gpu: { id: "NVIDIA L4" } })).status).toBe(201);
    });

    it(quoting("Current cost in USD per hour (0.0 when EXITED or TERMINATED)"), async () => {
      const pod = await call("POST", "/v2/pods", gpuPod());
      expect(pod.body.cost).toBeGreaterThan(0);
      const stopped = await call("POST", `/v2/pods/${pod.body.id}/action`, { action: "stop" });
      expect(stopped.body).toMatchObject({ status: "EXITED", cost: 0 });
    });

    it(
      quoting(
        "Valid state transitions for the current status.",
        "Which actions are valid depends on the pod's current status, and the currently permitted set is published in the pod's `actions` field: `RUNNING` allows `stop`/`restart`/`terminate`; `EXITED` and `ERROR` allow `start`/`terminate`; `PROVISIONING` and `STARTING` allow `stop`/`terminate`.",
        "Requesting an action that is not valid for the pod's current status returns `409`.",
      ),
      async () => {
        const pod = await call("POST", "/v2/pods", gpuPod());
        expect(pod.body.actions).toEqual(["stop", "restart", "terminate"]);
        await expectProblem(call("POST", `/v2/pods/${pod.body.id}/action`, { action: "start" }), 409, /not valid for a pod in status RUNNING/);
        const stopped = await call("POST", `/v2/pods/${pod.body.id}/action`, { action: "stop" });
        expect(stopped.body.actions).toEqual(["start", "terminate"]);
        await expectProblem(call("POST", `/v2/pods/${pod.body.id}/action`, { action: "restart" }), 409, /valid: start, terminate/);
      },
    );

    it(quoting("Locked pods cannot be stopped or reset."), async () => {
      const pod = await call("POST", "/v2/pods", gpuPod());
      await call("PATCH", `/v2/pods/${pod.body.id}`, { locked: true });
      await expectProblem(call("POST", `/v2/pods/${pod.body.id}/action`, { action: "stop" }), 409, /locked/);
      await call("PATCH", `/v2/pods/${pod.body.id}`, { locked: false });
      expect((await call("POST", `/v2/pods/${pod.body.id}/action`, { action: "stop" })).status).toBe(200);
    });
  });

  describe("serverless endpoints", () => {
    it(quoting("Callers specify exactly one of `gpu` or `cpu`; neither or both returns 400."), async () => {
      await expectProblem(call("POST", "/v2/serverless", endpoint({ cpu: [{ id: "cpu3c", vcpuCount: 2 }] })), 400, /exactly one of gpu or cpu/);
      const { gpu: _gpu, ...neither } = endpoint();
      await expectProblem(call("POST", "/v2/serverless", neither), 400, /exactly one of gpu or cpu/);
    });

    it(quoting("Valid only for an existing CPU endpoint; endpoint compute family cannot be changed.", "`cpu` completely replaces a CPU endpoint's selection; compute family is immutable.", "`gpu` on CPU, `cpu` on GPU, or both fields returns 400."), async () => {
      const gpuEp = await call("POST", "/v2/serverless", endpoint());
      const { gpu: _g, ...base } = endpoint();
      const cpuEp = await call("POST", "/v2/serverless", { ...base, cpu: [{ id: "cpu3c", vcpuCount: 2 }] });
      await expectProblem(call("PATCH", `/v2/serverless/${gpuEp.body.id}`, { cpu: [{ id: "cpu3c", vcpuCount: 2 }] }), 400, /compute family cannot be changed/);
      await expectProblem(call("PATCH", `/v2/serverless/${cpuEp.body.id}`, { gpu: { pools: ["ADA_24"] } }), 400, /compute family cannot be changed/);
      await expectProblem(call("PATCH", `/v2/serverless/${cpuEp.body.id}`, { gpu: { count: 1 }, cpu: [{ id: "cpu3c", vcpuCount: 2 }] }), 400, /not both/);
      const replaced = await call("PATCH", `/v2/serverless/${cpuEp.body.id}`, { cpu: [{ id: "cpu5c", vcpuCount: 4 }] });
      expect(replaced.body.cpu).toEqual([{ id: "cpu5c", vcpuCount: 4, memory: 8 }]);
      expect(replaced.body.gpu).toBeUndefined();
    });

    it(quoting("Not applicable to queue-based endpoints scaling on `requestCount` — rejected on create/update and omitted from responses for that combination."), async () => {
      const rc = { type: "REQUEST_COUNT", requestCount: 3 };
      await expectProblem(call("POST", "/v2/serverless", endpoint({ scaling: rc, workers: { min: 0, max: 2, idleTimeout: 5 } })), 400, /idleTimeout is not applicable/);
      const created = await call("POST", "/v2/serverless", endpoint({ scaling: rc, workers: { min: 0, max: 2 } }));
      expect(created.status).toBe(201);
      expect(created.body.workers).toEqual({ min: 0, max: 2 });
      await expectProblem(call("PATCH", `/v2/serverless/${created.body.id}`, { workers: { idleTimeout: 9 } }), 400, /idleTimeout is not applicable/);
      const queue = await call("POST", "/v2/serverless", endpoint({ workers: { min: 0, max: 2, idleTimeout: 7 } }));
      const switched = await call("PATCH", `/v2/serverless/${queue.body.id}`, { scaling: rc });
      expect(switched.body.workers.idleTimeout).toBeUndefined();
      // A load balancer scales on REQUEST_COUNT and keeps its idle timeout.
      const lb = await call("POST", "/v2/serverless", endpoint({ type: "LOAD_BALANCER", scaling: rc, workers: { min: 0, max: 2, idleTimeout: 5 } }));
      expect(lb.body.workers.idleTimeout).toBe(5);
    });

    it(quoting("Queue-based endpoints only.", "Required for load-balancing endpoints; also selectable for queue-based.", "Autoscaling signal — a discriminated union on `type`: `QUEUE_DELAY` (queue-based endpoints only) or `REQUEST_COUNT`."), async () => {
      // On create the schema already ties the scaler to the type (a schema failure: 422); on update
      // only the rule knows the type (the document's 400 for a request that breaks a rule).
      const created = await expectProblem(call("POST", "/v2/serverless", endpoint({ type: "LOAD_BALANCER" })), 422, /^request body failed validation$/);
      expect(created.errors.join()).toMatch(/\/scaling\/type must be one of: "REQUEST_COUNT"/);
      const lb = await call("POST", "/v2/serverless", endpoint({ type: "LOAD_BALANCER", scaling: { type: "REQUEST_COUNT", requestCount: 2 } }));
      await expectProblem(call("PATCH", `/v2/serverless/${lb.body.id}`, { scaling: { type: "QUEUE_DELAY", queueDelay: 4 } }), 400, /queue-based endpoints only/);
      expect((await call("POST", "/v2/serverless", endpoint({ scaling: { type: "REQUEST_COUNT", requestCount: 2 } }))).status).toBe(201);
    });

    it(
      quoting(
        "Tied to `pools`, because the two together are one selection: supplying `pools` replaces that selection wholesale, so a `PATCH` sending `pools` **without `excludedTypes`** **clears** them — restate them to keep them.",
        "A `PATCH` that omits `pools` leaves both the pools and the exclusions untouched, so changing only a CUDA constraint cannot widen a pinned endpoint.",
      ),
      async () => {
        const ep = await call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] } }));
        const cudaOnly = await call("PATCH", `/v2/serverless/${ep.body.id}`, { gpu: { allowedCudaVersions: ["12.8"] } });
        expect(cudaOnly.body.gpu).toMatchObject({ pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] });
        const repooled = await call("PATCH", `/v2/serverless/${ep.body.id}`, { gpu: { pools: ["ADA_24", "AMPERE_24"] } });
        expect(repooled.body.gpu.pools).toEqual(["ADA_24", "AMPERE_24"]);
        expect(repooled.body.gpu.excludedTypes).toBeUndefined();
      },
    );

    it(quoting("Rejected with 400 if a value is not a GPU type in one of `pools`; upstream accepts unrecognized exclusions silently, so a typo would otherwise produce a filter that does nothing."), async () => {
      await expectProblem(call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA A40"] } })), 400, /not a GPU type in any of the selected pools/);
      const trimmed = await call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_24"], excludedTypes: [" NVIDIA L4"] } }));
      expect(trimmed.body.gpu.excludedTypes).toEqual(["NVIDIA L4"]);
    });

    it(quoting("Keep at least one type in the selection — upstream rejects a selection that leaves none."), async () => {
      const pool = GPU_TYPES.filter((g) => g.pool === "ADA_48_PRO").map((g) => g.id);
      await expectProblem(call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_48_PRO"], excludedTypes: pool } })), 400, /leaves no GPU type/);
      expect((await call("POST", "/v2/serverless", endpoint({ gpu: { pools: ["ADA_48_PRO"], excludedTypes: pool.slice(1) } }))).status).toBe(201);
    });

    it(quoting("The template may be one of your own or a public catalog template — see `GET /v2/catalog/templates` (unknown or inaccessible ID → 404) — and must be a serverless template (→ 422).", "Must be one of your templates or a public template (unknown or inaccessible ID → 404); must be a serverless template (→ 422)."), async () => {
      const podTpl = await call("POST", "/v2/templates", { name: "p", image: "img/p:1" });
      await expectProblem(call("POST", "/v2/serverless", endpoint({ templateId: podTpl.body.id })), 422, /pod template/);
      await expectProblem(call("POST", "/v2/serverless", endpoint({ templateId: "nope" })), 404, /not found/);
      const worker = await call("POST", "/v2/templates", { name: "w", image: "img/w:1", serverless: true, allowedCudaVersions: ["12.6"] });
      const ep = await call("POST", "/v2/serverless", endpoint({ templateId: worker.body.id }));
      expect(ep.status).toBe(201);
      expect(ep.body.gpu.allowedCudaVersions).toEqual(["12.6"]);
      await expectProblem(call("PATCH", `/v2/serverless/${ep.body.id}`, { templateId: podTpl.body.id }), 422, /pod template/);
    });
  });
});
