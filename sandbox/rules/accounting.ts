// The accounting of every rule-like sentence of the v2 document's prose (as found by
// openapi/rule-sentences.ts): where the sandbox enforces it, or why it does not. Hand-kept:
// when the published document gains a rule-like sentence, test/sandbox/rule-accounting.test.ts
// fails until a line here accounts for it. docs/v2-rules.md is generated from this table
// (`npm run docs`).
//
// Kinds:
//   rule(...)          sandbox/rules/<group>.ts functions that enforce it (each tested with the sentence quoted)
//   handler(file, at)  enforced inline in a route handler or server hook (`at` is text found in that file)
//   schema(what)       enforced by the JSON Schema validator over the published document
//   response(what)     a fact about responses the sandbox produces
//   info(why)          informational: the sentence states no check
//   notSimulated(why)  cannot be simulated in the sandbox, and why

export type Account =
  | { kind: "rule"; rules: string[] }
  | { kind: "handler"; file: string; at: string }
  | { kind: "schema"; what: string }
  | { kind: "response"; what: string }
  | { kind: "info"; why: string }
  | { kind: "notSimulated"; why: string };

export type AccountedSentence = { pointer: string; sentence: string; account: Account };

const rule = (...rules: string[]): Account => ({ kind: "rule", rules });
const handler = (file: string, at: string): Account => ({ kind: "handler", file, at });
const schema = (what: string): Account => ({ kind: "schema", what });
const response = (what: string): Account => ({ kind: "response", what });
const info = (why: string): Account => ({ kind: "info", why });
const notSimulated = (why: string): Account => ({ kind: "notSimulated", why });

const TABLE: Array<[pointer: string, sentence: string, account: Account]> = [
  // /components/securitySchemes/bearerAuth
  ["/components/securitySchemes/bearerAuth", "Keys are scoped to the permissions granted when created; requests may return `403` when a valid key lacks access to the requested resource or action.", handler("sandbox/auth.ts", "createAuthenticator")],
  // /components/responses/UnauthorizedError
  ["/components/responses/UnauthorizedError", "Authentication failed because the bearer token is missing, malformed, expired, or invalid.", handler("sandbox/auth.ts", "createAuthenticator")],
  // /components/responses/MethodNotAllowedError
  ["/components/responses/MethodNotAllowedError", "The request method is not supported for the target path.", handler("sandbox/server.ts", "405")],
  // /components/responses/TooManyRequestsError
  ["/components/responses/TooManyRequestsError", "The `RateLimit` and `RateLimit-Policy` headers (per the IETF ratelimit-headers draft) also accompany successful responses, so clients can track quota before a 429.", handler("sandbox/server.ts", "limiter.hit")],
  // /components/parameters/BillingLastN
  ["/components/parameters/BillingLastN", "Mutually exclusive with startTime/endTime; provide one or the other, not both.", handler("sandbox/billing.ts", "lastN is mutually exclusive")],
  // /components/parameters/GpuProductFilter
  ["/components/parameters/GpuProductFilter", "Required with include=AVAILABILITY, and valid only with it (400 either way).", rule("catalog.availabilityFiltersNeedInclude")],
  // /components/parameters/GpuCountFilter
  ["/components/parameters/GpuCountFilter", "Valid only with include=AVAILABILITY.", rule("catalog.availabilityFiltersNeedInclude")],
  // /components/parameters/GpuCloudFilter
  ["/components/parameters/GpuCloudFilter", "Valid only with include=AVAILABILITY.", rule("catalog.availabilityFiltersNeedInclude")],
  // /components/parameters/CountryCodesFilter
  ["/components/parameters/CountryCodesFilter", "Valid only with include=AVAILABILITY (400 otherwise); a malformed entry is a 422.", rule("catalog.availabilityFiltersNeedInclude")],
  ["/components/parameters/CountryCodesFilter", "On the list endpoint a GPU type with no data center in those countries drops out entirely; the single-GPU endpoint still returns the requested type, with availability NONE and dataCenters omitted, so a 404 keeps meaning the GPU type does not exist.", notSimulated("the sandbox catalog has no per-country placement data, so countryCodes narrows nothing")],
  // /components/parameters/CudaVersionsFilter
  ["/components/parameters/CudaVersionsFilter", "Format: major.minor, e.g. 12.8 — a bare major is rejected here because it identifies no version.", schema("CudaVersionsFilter items pattern ^\\d+\\.\\d+$ (the sandbox answers its schema failures with 422, as the document says of a malformed entry)")],
  ["/components/parameters/CudaVersionsFilter", "Valid only with include=AVAILABILITY (400 otherwise) and mutually exclusive with minCudaVersion (400 if both are sent); a malformed entry is a 422.", rule("catalog.availabilityFiltersNeedInclude", "catalog.cudaFiltersMutuallyExclusive")],
  // /components/parameters/MinCudaVersionFilter
  ["/components/parameters/MinCudaVersionFilter", "Format: integer major or major.minor, e.g. 12 or 12.1 — unlike the `gpu.minCudaVersion` body field on pod and endpoint create, a bare major is accepted here and means any release of that major, because this filter only widens a read.", schema("MinCudaVersionFilter pattern ^\\d+(\\.\\d+)?$")],
  ["/components/parameters/MinCudaVersionFilter", "Valid only with include=AVAILABILITY (400 otherwise) and mutually exclusive with cudaVersions (400 if both are sent); a malformed value is a 422.", rule("catalog.availabilityFiltersNeedInclude", "catalog.cudaFiltersMutuallyExclusive")],
  ["/components/parameters/MinCudaVersionFilter", "Use this for an open-ended floor and cudaVersions for an exact set.", info("advice to the caller; states no check")],
  // /components/parameters/CpuProductFilter
  ["/components/parameters/CpuProductFilter", "Required with include=AVAILABILITY, and valid only with it (400 either way).", rule("catalog.availabilityFiltersNeedInclude")],
  // /components/parameters/CpuVCPUCountFilter
  ["/components/parameters/CpuVCPUCountFilter", "Valid only with include=AVAILABILITY.", rule("catalog.availabilityFiltersNeedInclude")],
  ["/components/parameters/CpuVCPUCountFilter", "Must be a power of two.", rule("catalog.vcpuCountPowerOfTwo")],
  // /components/parameters/LogTail
  ["/components/parameters/LogTail", "Maximum 5000.", schema("LogTail maximum 5000")],
  // /components/schemas/BaseContainerConfig
  ["/components/schemas/BaseContainerConfig", "Compose ContainerConfig instead unless the resource cannot support private registries (clusters, until the upstream input accepts a registry credential).", info("describes how the document composes its schemas")],
  // /components/schemas/Mounts
  ["/components/schemas/Mounts", "At-most-one of `persistent` or `network` may be set today (mutually exclusive, enforced at the handler with 400 if both are present).", rule("pods.mountsMutuallyExclusive")],
  ["/components/schemas/Mounts", "- An explicit `network: []` is rejected with 400 (clearing mounts is not supported).", rule("pods.clearingMountsNotSupported")],
  ["/components/schemas/Mounts", "- Mount kind is fixed at create — a PATCH that introduces a kind not present at create (persistent on a network pod, network on a persistent pod, or any mount on a previously-mountless pod) is rejected with 400.", rule("pods.mountKindFixedAtCreate")],
  ["/components/schemas/Mounts", "- The `volumeId` of a network mount is immutable; a PATCH that names a different `volumeId` is rejected with 400.", rule("pods.networkVolumeIdImmutable")],
  ["/components/schemas/Mounts", "- Partial mounts are not supported — every mount entry must include the full schema (`size` + `path` for persistent, `volumeId` + `path` for network).", schema("PersistentMount required [size, path], NetworkMount required [volumeId, path]")],
  ["/components/schemas/Mounts", "Missing required fields → 422.", schema("PersistentMount/NetworkMount `required` (the sandbox answers its schema failures with 422, as the document says)")],
  // /components/schemas/TemplateMounts
  ["/components/schemas/TemplateMounts", "Templates support only a single persistent mount today; any `network` property is rejected with 422 by the schema validator.", schema("TemplateMounts has no `network` property and is closed")],
  // /components/schemas/PersistentMount
  ["/components/schemas/PersistentMount", "Disallowed on CPU pods.", rule("pods.persistentMountInvalidOnCpu")],
  ["/components/schemas/PersistentMount", "Mutually exclusive with NetworkMount.", rule("pods.mountsMutuallyExclusive")],
  ["/components/schemas/PersistentMount", "Deprecated: prefer NetworkMount for any data you cannot recreate.", info("deprecation advice; persistent mounts are still accepted")],
  // /components/schemas/PersistentMount/properties/size
  ["/components/schemas/PersistentMount/properties/size", "Upstream enforces a 10 GB floor.", schema("PersistentMount.size minimum 10")],
  // /components/schemas/NetworkMount
  ["/components/schemas/NetworkMount", "The underlying `volumeId` is immutable post-create; the mount `path` may be changed via PATCH.", rule("pods.networkVolumeIdImmutable")],
  // /components/schemas/NetworkMount/properties/path
  ["/components/schemas/NetworkMount/properties/path", "No default — must be specified explicitly.", schema("NetworkMount required [volumeId, path]")],
  // /components/schemas/CreateGpuConfig/allOf/1/properties/allowedCudaVersions
  ["/components/schemas/CreateGpuConfig/allOf/1/properties/allowedCudaVersions", "A non-empty set is mutually exclusive with minCudaVersion (400 if both are sent).", rule("pods.cudaConstraintsMutuallyExclusive")],
  ["/components/schemas/CreateGpuConfig/allOf/1/properties/allowedCudaVersions", "An explicit `[]` states no constraint, so it may accompany a floor.", rule("pods.cudaConstraintsMutuallyExclusive")],
  // /components/schemas/CreateGpuConfig/allOf/1/properties/minCudaVersion
  ["/components/schemas/CreateGpuConfig/allOf/1/properties/minCudaVersion", "Use this for an open-ended floor and allowedCudaVersions for an exact set.", info("advice to the caller; states no check")],
  ["/components/schemas/CreateGpuConfig/allOf/1/properties/minCudaVersion", "Mutually exclusive with a non-empty allowedCudaVersions (400 if both are sent); an explicit `[]` there states no constraint and may accompany this floor.", rule("pods.cudaConstraintsMutuallyExclusive")],
  // /components/schemas/BaseCpuConfig/properties/vcpuCount
  ["/components/schemas/BaseCpuConfig/properties/vcpuCount", "Must be valid for the selected CPU flavor and must be a power of two.", rule("pods.vcpuCountValid")],
  // /components/schemas/BaseEndpointGpuConfig/properties/excludedTypes
  ["/components/schemas/BaseEndpointGpuConfig/properties/excludedTypes", "Tied to `pools`, because the two together are one selection: supplying `pools` replaces that selection wholesale, so a `PATCH` sending `pools` **without `excludedTypes`** **clears** them — restate them to keep them.", rule("serverless.selectionAfter")],
  ["/components/schemas/BaseEndpointGpuConfig/properties/excludedTypes", "A `PATCH` that omits `pools` leaves both the pools and the exclusions untouched, so changing only a CUDA constraint cannot widen a pinned endpoint.", rule("serverless.selectionAfter")],
  ["/components/schemas/BaseEndpointGpuConfig/properties/excludedTypes", "Rejected with 400 if a value is not a GPU type in one of `pools`; upstream accepts unrecognized exclusions silently, so a typo would otherwise produce a filter that does nothing.", rule("serverless.excludedTypesInPools")],
  // /components/schemas/EndpointGpuConfig/allOf/1/properties/minCudaVersion
  ["/components/schemas/EndpointGpuConfig/allOf/1/properties/minCudaVersion", "Null means no floor.", response("sandbox/routes/serverless.ts gpuConfig stores minCudaVersion null when no floor is set")],
  // /components/schemas/CreateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions
  ["/components/schemas/CreateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions", "A non-empty set is mutually exclusive with minCudaVersion (400 if both are sent).", rule("pods.cudaConstraintsMutuallyExclusive")],
  ["/components/schemas/CreateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions", "An explicit `[]` states no constraint, so it may accompany a floor.", rule("pods.cudaConstraintsMutuallyExclusive")],
  // /components/schemas/CreateEndpointGpuConfig/allOf/1/properties/minCudaVersion
  ["/components/schemas/CreateEndpointGpuConfig/allOf/1/properties/minCudaVersion", "Use this for an open-ended floor and allowedCudaVersions for an exact set.", info("advice to the caller; states no check")],
  ["/components/schemas/CreateEndpointGpuConfig/allOf/1/properties/minCudaVersion", "Mutually exclusive with a non-empty allowedCudaVersions (400 if both are sent); an explicit `[]` there states no constraint and may accompany this floor.", rule("pods.cudaConstraintsMutuallyExclusive")],
  // /components/schemas/UpdateEndpointGpuConfig
  ["/components/schemas/UpdateEndpointGpuConfig", "Unlike create, `pools` is optional, so changing only a CUDA constraint does not require resending the pool list.", schema("UpdateEndpointGpuConfig has no required properties")],
  ["/components/schemas/UpdateEndpointGpuConfig", "`excludedTypes` requires `pools`, because the two are one selection and only a supplied `pools` replaces it — an exclusion on its own would otherwise be silently dropped.", schema("UpdateEndpointGpuConfig dependentRequired excludedTypes \u2192 pools")],
  // /components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions
  ["/components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions", "An explicit `[]` clears the constraint; omitting the field leaves it unchanged.", handler("sandbox/routes/serverless.ts", "gpuConfig")],
  ["/components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions", "A non-empty set is mutually exclusive with minCudaVersion (400 if both are sent).", rule("pods.cudaConstraintsMutuallyExclusive")],
  ["/components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions", "An explicit `[]` states no constraint, so it may accompany a floor.", rule("pods.cudaConstraintsMutuallyExclusive")],
  ["/components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/allowedCudaVersions", "Setting one does not clear the other — clear it explicitly in the same patch if the endpoint already carries it.", rule("pods.cudaConstraintsMutuallyExclusive")],
  // /components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/minCudaVersion
  ["/components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/minCudaVersion", "An explicit `\"\"` clears the floor; omitting the field leaves it unchanged.", handler("sandbox/routes/serverless.ts", "gpuConfig")],
  ["/components/schemas/UpdateEndpointGpuConfig/allOf/1/properties/minCudaVersion", "Mutually exclusive with a non-empty allowedCudaVersions (400 if both are sent); an explicit `[]` there states no constraint and may accompany this floor.", rule("pods.cudaConstraintsMutuallyExclusive")],
  // /components/schemas/EndpointWorkers/properties/min
  ["/components/schemas/EndpointWorkers/properties/min", "Minimum number of workers.", schema("EndpointWorkers.min minimum 0")],
  // /components/schemas/EndpointWorkers/properties/max
  ["/components/schemas/EndpointWorkers/properties/max", "Maximum number of workers.", schema("EndpointWorkers.max minimum 0")],
  // /components/schemas/EndpointWorkers/properties/idleTimeout
  ["/components/schemas/EndpointWorkers/properties/idleTimeout", "Not applicable to queue-based endpoints scaling on `requestCount` — rejected on create/update and omitted from responses for that combination.", rule("serverless.idleTimeoutNotWithRequestCount", "serverless.workersForResponse")],
  // /components/schemas/QueueDelayScaling
  ["/components/schemas/QueueDelayScaling", "Queue-based endpoints only.", rule("serverless.queueDelayOnlyForQueue")],
  // /components/schemas/RequestCountScaling
  ["/components/schemas/RequestCountScaling", "Required for load-balancing endpoints; also selectable for queue-based.", rule("serverless.queueDelayOnlyForQueue")],
  // /components/schemas/EndpointScaling
  ["/components/schemas/EndpointScaling", "Autoscaling signal — a discriminated union on `type`: `QUEUE_DELAY` (queue-based endpoints only) or `REQUEST_COUNT`.", rule("serverless.queueDelayOnlyForQueue")],
  // /components/schemas/CreateEndpointRequest/allOf/2/properties/type
  ["/components/schemas/CreateEndpointRequest/allOf/2/properties/type", "Required — it determines the valid scaler and request URLs, so it must be chosen explicitly on every create.", schema("CreateEndpointRequest required [name, type, scaling]")],
  // /components/schemas/CreateEndpointRequest/allOf/2/properties/cpu
  ["/components/schemas/CreateEndpointRequest/allOf/2/properties/cpu", "Exact duplicate configurations are rejected; the same flavor may be listed at different vCPU counts.", schema("CreateEndpointRequest.cpu uniqueItems")],
  // /components/schemas/CreateEndpointRequest/allOf/2/properties/templateId
  ["/components/schemas/CreateEndpointRequest/allOf/2/properties/templateId", "The template's allowedCudaVersions seeds `gpu.allowedCudaVersions` when the body omits it — but only for a GPU create, since a CPU endpoint has no gpu block to seed into, and not when the body sets `gpu.minCudaVersion`, since seeding a set beside a floor would manufacture the mutual-exclusion 400 from a valid request.", handler("sandbox/routes/serverless.ts", "seeds the GPU create")],
  ["/components/schemas/CreateEndpointRequest/allOf/2/properties/templateId", "The template may be one of your own or a public catalog template — see `GET /v2/catalog/templates` (unknown or inaccessible ID → 404) — and must be a serverless template (→ 422).", rule("serverless.endpointTemplateIsServerless")],
  // /components/schemas/UpdateEndpointRequest/allOf/1
  ["/components/schemas/UpdateEndpointRequest/allOf/1", "Only provided fields are changed.", handler("sandbox/routes/serverless.ts", "app.patch")],
  // /components/schemas/UpdateEndpointRequest/allOf/1/properties/cpu
  ["/components/schemas/UpdateEndpointRequest/allOf/1/properties/cpu", "Complete replacement CPU selection.", handler("sandbox/routes/serverless.ts", "a complete replacement of the CPU selection")],
  ["/components/schemas/UpdateEndpointRequest/allOf/1/properties/cpu", "Valid only for an existing CPU endpoint; endpoint compute family cannot be changed.", rule("serverless.computeFamilyImmutable")],
  // /components/schemas/UpdateEndpointRequest/allOf/1/properties/templateId
  ["/components/schemas/UpdateEndpointRequest/allOf/1/properties/templateId", "Explicit body fields override the template's; `env` merges template and body per key (body wins) and, per PATCH semantics, replaces the endpoint's env.", handler("sandbox/routes/serverless.ts", "Template env merges")],
  ["/components/schemas/UpdateEndpointRequest/allOf/1/properties/templateId", "Must be one of your templates or a public template (unknown or inaccessible ID → 404); must be a serverless template (→ 422).", rule("serverless.endpointTemplateIsServerless")],
  // /components/schemas/PodAction
  ["/components/schemas/PodAction", "State transition to trigger on a pod.", schema("PodAction enum")],
  // /components/schemas/TemplateCategory
  ["/components/schemas/TemplateCategory", "- `CPU` — CPU-only workloads", info("console grouping; does not affect scheduling")],
  // /components/schemas/PodGlobalNetworking/properties/ip
  ["/components/schemas/PodGlobalNetworking/properties/ip", "Present only when enabled.", response("sandbox/routes/pods.ts createPod: globalNetworking is { enabled: false } when off")],
  // /components/schemas/PodGlobalNetworking/properties/internalDns
  ["/components/schemas/PodGlobalNetworking/properties/internalDns", "Present only when enabled.", response("sandbox/routes/pods.ts createPod: globalNetworking is { enabled: false } when off")],
  // /components/schemas/PodSsh
  ["/components/schemas/PodSsh", "Both variants authenticate with the account's registered SSH public keys (`PUT /v2/account/ssh-keys`), which reach the pod only if it was created with `startSsh` — a pod created without it has no SSH access regardless of what this block reports.", handler("sandbox/routes/pods.ts", "PUBLIC_KEY")],
  // /components/schemas/PodSsh/properties/proxy
  ["/components/schemas/PodSsh/properties/proxy", "Works without exposing a port and without a public IP, but carries an interactive shell only — SCP, SFTP, rsync, and port forwarding need `direct`.", info("describes what the SSH proxy can carry; nothing to check")],
  // /components/schemas/UpdateSshKeysRequest/properties/keys
  ["/components/schemas/UpdateSshKeysRequest/properties/keys", "The full set of SSH public keys to register — this is a complete replacement, not a merge.", handler("sandbox/routes/account.ts", "app.put")],
  // /components/schemas/Pod/allOf/1/properties/actions
  ["/components/schemas/Pod/allOf/1/properties/actions", "Valid state transitions for the current status.", rule("pods.actionsFor")],
  // /components/schemas/Pod/allOf/1/properties/cluster
  ["/components/schemas/Pod/allOf/1/properties/cluster", "Member pods are managed through `/v2/clusters/{id}` — they are excluded from `GET /v2/pods` by default (pass `includeClusterPods=true` to include them) and cannot be modified or deleted via the pod endpoints.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400), so no pod is a cluster member")],
  // /components/schemas/Pod/allOf/1/properties/cost
  ["/components/schemas/Pod/allOf/1/properties/cost", "Current cost in USD per hour (0.0 when EXITED or TERMINATED)", rule("pods.costFor")],
  // /components/schemas/CreatePodRequest/allOf/1
  ["/components/schemas/CreatePodRequest/allOf/1", "Exactly one of `gpu` or `cpu` must be set — enforced at the handler layer.", rule("pods.exactlyOneComputeKind")],
  ["/components/schemas/CreatePodRequest/allOf/1", "For CPU pods, memory is derived by the API from the selected flavor's RAM multiplier; clients provide only CPU flavor and vCPU count.", handler("sandbox/routes/pods.ts", "ramGbPerVcpu")],
  ["/components/schemas/CreatePodRequest/allOf/1", "CPU pods support container disk and network volumes only; `mounts.persistent` is invalid when `cpu` is set.", rule("pods.persistentMountInvalidOnCpu")],
  ["/components/schemas/CreatePodRequest/allOf/1", "`image` is required unless `templateId` is set.", schema("CreatePodRequest if not templateId then required image")],
  // /components/schemas/CreatePodRequest/allOf/1/properties/globalNetworking
  ["/components/schemas/CreatePodRequest/allOf/1/properties/globalNetworking", "Requires an NVIDIA GPU and a global-networking-enabled data center (both enforced upstream).", rule("pods.globalNetworkingNeedsNvidiaGpu", "pods.globalNetworkingDataCenter")],
  // /components/schemas/CreatePodRequest/allOf/1/properties/startJupyter
  ["/components/schemas/CreatePodRequest/allOf/1/properties/startJupyter", "Only images that honor the convention start Jupyter from it (RunPod official images do); expose `8888/http` in `ports` to reach it.", info("which images honour the flag; nothing to check")],
  ["/components/schemas/CreatePodRequest/allOf/1/properties/startJupyter", "Not part of the pod's readable config — never returned by GET and not changeable by PATCH.", schema("Pod has no startJupyter property; UpdatePodRequest is closed (unevaluatedProperties false)")],
  // /components/schemas/CreatePodRequest/allOf/1/properties/startSsh
  ["/components/schemas/CreatePodRequest/allOf/1/properties/startSsh", "**Requires registered keys** (`PUT /v2/account/ssh-keys`) — with none registered the flag does nothing and the pod has no SSH access.", handler("sandbox/routes/pods.ts", "PUBLIC_KEY")],
  ["/components/schemas/CreatePodRequest/allOf/1/properties/startSsh", "Only images that honor the convention start sshd from it (all RunPod official images do).", info("which images honour the flag; nothing to check")],
  ["/components/schemas/CreatePodRequest/allOf/1/properties/startSsh", "Not part of the pod's readable config — never returned by GET and not changeable by PATCH.", schema("Pod has no startSsh property; UpdatePodRequest is closed (unevaluatedProperties false)")],
  // /components/schemas/CreatePodRequest/allOf/1/properties/templateId
  ["/components/schemas/CreatePodRequest/allOf/1/properties/templateId", "Sending either CUDA field (`gpu.allowedCudaVersions` or `gpu.minCudaVersion`) replaces the template's CUDA constraint entirely, and CPU pods ignore it (like the persistent mount).", handler("sandbox/routes/pods.ts", "replaces the template's constraint entirely")],
  ["/components/schemas/CreatePodRequest/allOf/1/properties/templateId", "The template is a one-time source of settings: later template edits do not affect the pod, and the created pod does not retain a link to the template (`template` stays null).", rule("pods.templateLink")],
  ["/components/schemas/CreatePodRequest/allOf/1/properties/templateId", "The template may be one of your own or a public catalog template — see `GET /v2/catalog/templates` (unknown or inaccessible ID → 404) — and must not be a serverless template (→ 422).", rule("pods.podTemplateNotServerless")],
  // /components/schemas/UpdatePodRequest/allOf/1/properties/globalNetworking
  ["/components/schemas/UpdatePodRequest/allOf/1/properties/globalNetworking", "Requires an NVIDIA GPU and a global-networking-enabled data center (both enforced upstream).", rule("pods.globalNetworkingNeedsNvidiaGpu", "pods.globalNetworkingDataCenter")],
  // /components/schemas/UpdatePodRequest/allOf/1/properties/locked
  ["/components/schemas/UpdatePodRequest/allOf/1/properties/locked", "Locked pods cannot be stopped or reset.", rule("pods.lockedPodCannotStop")],
  // /components/schemas/UpdatePodRequest/allOf/1/properties/templateId
  ["/components/schemas/UpdatePodRequest/allOf/1/properties/templateId", "Explicit body fields override the template's; `env` merges template and body per key (body wins) and, per PATCH semantics, replaces the pod's env.", handler("sandbox/routes/pods.ts", "pod.env = { ...(tpl")],
  ["/components/schemas/UpdatePodRequest/allOf/1/properties/templateId", "Must be one of your templates or a public template (unknown or inaccessible ID → 404); must not be a serverless template (→ 422).", rule("pods.podTemplateNotServerless")],
  // /components/schemas/ClusterCompute/properties/gpuCountPerPod
  ["/components/schemas/ClusterCompute/properties/gpuCountPerPod", "Bounded above by the GPU type's per-cloud maximum (GpuType.maxCount); the upstream rejects values beyond it.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400)")],
  // /components/schemas/Cluster/properties/dataCenterId
  ["/components/schemas/Cluster/properties/dataCenterId", "Derived from the member pods; omitted until at least one pod is placed.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400)")],
  // /components/schemas/UpdateClusterRequest
  ["/components/schemas/UpdateClusterRequest", "Only the cluster name can be changed — this endpoint is a rename.", schema("UpdateClusterRequest has only `name` and is closed")],
  ["/components/schemas/UpdateClusterRequest", "Compute shape, type, and container configuration are fixed at creation.", schema("UpdateClusterRequest has only `name` and is closed")],
  // /components/schemas/CreateTemplateRequest/allOf/1/properties/startJupyter
  ["/components/schemas/CreateTemplateRequest/allOf/1/properties/startJupyter", "Only images that honor the convention start Jupyter from it (RunPod official images do); expose `8888/http` in `ports` to reach it.", info("which images honour the flag; nothing to check")],
  // /components/schemas/CreateTemplateRequest/allOf/1/properties/startSsh
  ["/components/schemas/CreateTemplateRequest/allOf/1/properties/startSsh", "Only images that honor the convention start sshd from it (all RunPod official images do); direct SSH also needs a `22/tcp` entry in `ports`.", info("which images honour the flag; nothing to check")],
  // /components/schemas/UpdateTemplateRequest/allOf/1/properties/allowedCudaVersions
  ["/components/schemas/UpdateTemplateRequest/allOf/1/properties/allowedCudaVersions", "An explicit `[]` clears the constraint; omitting the field leaves it unchanged.", handler("sandbox/routes/templates.ts", "allowedCudaVersions = strArray")],
  // /components/schemas/NetworkVolume/properties/name
  ["/components/schemas/NetworkVolume/properties/name", "Human-readable name (not required to be unique)", info("names need not be unique; nothing to reject")],
  // /components/schemas/NetworkVolume/properties/dataCenter
  ["/components/schemas/NetworkVolume/properties/dataCenter", "Data center location; immutable after creation", schema("UpdateNetworkVolumeRequest has no dataCenter and is closed")],
  // /components/schemas/NetworkVolume/properties/type
  ["/components/schemas/NetworkVolume/properties/type", "Set at creation and immutable.", schema("UpdateNetworkVolumeRequest has no type and is closed")],
  // /components/schemas/CreateNetworkVolumeRequest/properties/type
  ["/components/schemas/CreateNetworkVolumeRequest/properties/type", "A volume's tier is immutable after creation.", schema("UpdateNetworkVolumeRequest has no type and is closed")],
  // /components/schemas/UpdateNetworkVolumeRequest
  ["/components/schemas/UpdateNetworkVolumeRequest", "Only the provided fields are updated.", handler("sandbox/routes/network-volumes.ts", "app.patch")],
  ["/components/schemas/UpdateNetworkVolumeRequest", "At least one field must be present; an empty body is rejected.", schema("UpdateNetworkVolumeRequest minProperties 1")],
  // /components/schemas/UpdateNetworkVolumeRequest/properties/size
  ["/components/schemas/UpdateNetworkVolumeRequest/properties/size", "Must be greater than or equal to the current size — network volume storage cannot be reduced.", handler("sandbox/routes/network-volumes.ts", "can only grow")],
  // /components/schemas/CreateRegistryRequest/properties/password
  ["/components/schemas/CreateRegistryRequest/properties/password", "Registry password (write-only, not returned in responses)", handler("sandbox/routes/registries.ts", "view")],
  // /components/schemas/CreateRegistryRequest/properties/username
  ["/components/schemas/CreateRegistryRequest/properties/username", "Registry username (write-only, not returned in responses)", handler("sandbox/routes/registries.ts", "view")],
  // /components/schemas/GpuType/properties/availability
  ["/components/schemas/GpuType/properties/availability", "Present only when requested with include=AVAILABILITY, which also requires `product`.", handler("sandbox/routes/catalog.ts", "withAvailability")],
  // /components/schemas/GpuType/properties/dataCenters
  ["/components/schemas/GpuType/properties/dataCenters", "Per-datacenter GPU availability for the requested `product` contexts, listing only the datacenters that offer this GPU in the requested configuration.", handler("sandbox/routes/catalog.ts", "withAvailability")],
  ["/components/schemas/GpuType/properties/dataCenters", "Present only when requested with include=AVAILABILITY, which also requires `product`, and omitted entirely when the configuration is unavailable everywhere.", handler("sandbox/routes/catalog.ts", "withAvailability")],
  // /components/schemas/GpuType/properties/cudaVersions
  ["/components/schemas/GpuType/properties/cudaVersions", "Present only when requested with include=AVAILABILITY, and scoped by the same filters as `availability` (`count`, `cloud`, `product`, and whichever of `cudaVersions` / `minCudaVersion` was supplied).", handler("sandbox/routes/catalog.ts", "withAvailability")],
  // /components/schemas/Product
  ["/components/schemas/Product", "Availability is product-specific, so this is required whenever availability is requested.", rule("catalog.availabilityFiltersNeedInclude")],
  // /components/schemas/CpuProduct
  ["/components/schemas/CpuProduct", "Availability is product-specific, so this is required whenever availability is requested.", rule("catalog.availabilityFiltersNeedInclude")],
  // /components/schemas/CatalogInclude
  ["/components/schemas/CatalogInclude", "Only AVAILABILITY is supported today; additional include values may be added in the future.", schema("CatalogInclude enum [AVAILABILITY]")],
  // /components/schemas/CudaVersionAvailability/properties/available
  ["/components/schemas/CudaVersionAvailability/properties/available", "True when at least one machine on this CUDA version has free capacity now.", handler("sandbox/routes/catalog.ts", "available: hasCapacity")],
  // /components/schemas/CpuType/properties/availability
  ["/components/schemas/CpuType/properties/availability", "Present only when requested with include=AVAILABILITY, which also requires `product`.", handler("sandbox/routes/catalog.ts", "withAvailability")],
  // /components/schemas/CpuType/properties/dataCenters
  ["/components/schemas/CpuType/properties/dataCenters", "Per-datacenter CPU availability for the requested `product` contexts, listing only the datacenters that offer this CPU flavor.", handler("sandbox/routes/catalog.ts", "withAvailability")],
  ["/components/schemas/CpuType/properties/dataCenters", "Present only when requested with include=AVAILABILITY, which also requires `product`, and omitted entirely when the flavor is unavailable everywhere.", handler("sandbox/routes/catalog.ts", "withAvailability")],
  // /components/schemas/DataCenter/properties/gpuAvailability
  ["/components/schemas/DataCenter/properties/gpuAvailability", "Present only when requested with include=GPU_AVAILABILITY, and omitted entirely when the data center offers no GPUs.", handler("sandbox/routes/catalog.ts", "GPU_AVAILABILITY")],
  // /components/schemas/DataCenter/properties/cpuAvailability
  ["/components/schemas/DataCenter/properties/cpuAvailability", "Present only when requested with include=CPU_AVAILABILITY, and omitted entirely when the data center offers no CPU flavors.", handler("sandbox/routes/catalog.ts", "CPU_AVAILABILITY")],
  // /components/schemas/ClusterBillingAmounts
  ["/components/schemas/ClusterBillingAmounts", "Cluster cost components (GPU-only, no CPU).", handler("sandbox/routes/billing.ts", "/v2/billing/clusters")],
  // /components/schemas/ClusterBillingRecord
  ["/components/schemas/ClusterBillingRecord", "A single time-bucketed cluster billing record; clusters are GPU-only (no CPU component).", handler("sandbox/routes/billing.ts", "/v2/billing/clusters")],
  // /components/schemas/RateLimitHeader
  ["/components/schemas/RateLimitHeader", "Returned on responses to authenticated requests, not only on 429s.", handler("sandbox/server.ts", "limiter.hit")],
  // /components/schemas/RateLimitPolicyHeader
  ["/components/schemas/RateLimitPolicyHeader", "Returned on responses to authenticated requests, not only on 429s.", handler("sandbox/server.ts", "limiter.hit")],
  // /paths/~1v2~1account~1ssh-keys/put
  ["/paths/~1v2~1account~1ssh-keys/put", "Replaces the account's full set of registered SSH public keys.", handler("sandbox/routes/account.ts", "app.put")],
  // /paths/~1v2~1pods/post
  ["/paths/~1v2~1pods/post", "`name` is always required; supply exactly one of `gpu` or `cpu` to select compute (a GPU or a CPU pod).", rule("pods.exactlyOneComputeKind")],
  ["/paths/~1v2~1pods/post", "Container settings come from the body, from a template referenced by `templateId` (body fields override the template's), or both; `image` is required unless `templateId` is set.", handler("sandbox/routes/pods.ts", "createPod")],
  ["/paths/~1v2~1pods/post", "Provisioning is asynchronous: the pod starts in `PROVISIONING`, transitions through `STARTING`, and reaches `RUNNING` once its container is healthy.", rule("pods.statusAfterBoot")],
  ["/paths/~1v2~1pods/post", "Both accept filters that combine, so you can narrow by location and by compute in one request — for example `GET /v2/catalog/datacenters?regions=EUROPE&include=GPU_AVAILABILITY` returns only European data centers, each carrying the GPU types currently available there.", info("advice on reading the catalog before a create; nothing to check")],
  ["/paths/~1v2~1pods/post", "| Status | Meaning | Do | | --- | --- | --- | | `422` | The body does not match the contract.", info("explains the document's error statuses; the sandbox answers its schema failures with 422 (see docs/v2-rules.md)")],
  ["/paths/~1v2~1pods/post", "Never retry. | | `400` | The body matches the contract but was rejected — either it breaks a cross-field rule, or this GPU and data center combination could not be placed. | Try your next candidate. | | `402` | Insufficient balance. | Stop; no candidate will succeed. | | `403` | Your account cannot access the requested pool. | Skip this candidate, keep going. | | `429` | Rate limited. | Back off using `Retry-After`, then resume. | | `5xx` | Transient upstream failure. | Retry the same candidate with backoff. |", info("explains the document's error statuses; cross-field rules in sandbox/rules answer 400")],
  ["/paths/~1v2~1pods/post", "`400` covers both \"your request breaks a rule\" and \"no capacity\", because capacity exhaustion currently carries no machine-readable code of its own — only a human-readable `detail`.", info("explains why capacity errors are 400s; the sandbox's capacity errors are 400s")],
  ["/paths/~1v2~1pods/post", "A rule violation is deterministic, so it fails identically on every candidate: if *every* candidate returns `400`, read the last `detail` as a problem with the request rather than as absent capacity.", info("advice to the caller; states no check")],
  // /paths/~1v2~1pods~1{id}/patch
  ["/paths/~1v2~1pods~1{id}/patch", "This is a PATCH: only the fields present in the body are changed, and omitted fields are left untouched.", handler("sandbox/routes/pods.ts", "app.patch")],
  ["/paths/~1v2~1pods~1{id}/patch", "Use empty values only when you explicitly mean to clear a field (for example, set `registry` to `null` or set `ports` to `[]`).", handler("sandbox/routes/pods.ts", "app.patch")],
  ["/paths/~1v2~1pods~1{id}/patch", "Pods that belong to a Cluster cannot be updated here — manage them through `/v2/clusters/{id}`.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400), so no pod is a cluster member")],
  // /paths/~1v2~1pods~1{id}/patch/responses/409
  ["/paths/~1v2~1pods~1{id}/patch/responses/409", "Pod belongs to a cluster and cannot be modified via the pod endpoints.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400), so no pod is a cluster member")],
  // /paths/~1v2~1pods~1{id}/delete
  ["/paths/~1v2~1pods~1{id}/delete", "This is irreversible: compute is released, any `mounts.persistent` host-local storage is destroyed with it (a `mounts.network` volume is only detached — the volume itself is not deleted), and the pod no longer appears in `listPods`.", handler("sandbox/routes/pods.ts", "app.delete")],
  ["/paths/~1v2~1pods~1{id}/delete", "Pods that belong to a Cluster cannot be terminated here — delete the cluster via `DELETE /v2/clusters/{id}`.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400), so no pod is a cluster member")],
  // /paths/~1v2~1pods~1{id}/delete/responses/409
  ["/paths/~1v2~1pods~1{id}/delete/responses/409", "Pod belongs to a cluster and cannot be terminated via the pod endpoints.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400), so no pod is a cluster member")],
  // /paths/~1v2~1pods~1{id}~1action/post
  ["/paths/~1v2~1pods~1{id}~1action/post", "Triggers a state transition on a pod.", handler("sandbox/routes/pods.ts", "/v2/pods/:id/action")],
  ["/paths/~1v2~1pods~1{id}~1action/post", "Which actions are valid depends on the pod's current status, and the currently permitted set is published in the pod's `actions` field: `RUNNING` allows `stop`/`restart`/`terminate`; `EXITED` and `ERROR` allow `start`/`terminate`; `PROVISIONING` and `STARTING` allow `stop`/`terminate`.", rule("pods.actionsFor")],
  ["/paths/~1v2~1pods~1{id}~1action/post", "Requesting an action that is not valid for the pod's current status returns `409`.", rule("pods.actionAllowed")],
  // /paths/~1v2~1pods~1{id}~1action/post/responses/204
  ["/paths/~1v2~1pods~1{id}~1action/post/responses/204", "Only returned when `action=terminate`; response has no body.", handler("sandbox/routes/pods.ts", "case \"terminate\"")],
  // /paths/~1v2~1clusters~1{id}/patch
  ["/paths/~1v2~1clusters~1{id}/patch", "This endpoint only changes the cluster name — compute shape, type, and container configuration are fixed at creation and cannot be updated.", schema("UpdateClusterRequest has only `name` and is closed")],
  // /paths/~1v2~1clusters~1{id}~1pods/get
  ["/paths/~1v2~1clusters~1{id}~1pods/get", "The cluster summary (`GET /v2/clusters/{id}`) carries only aggregate pod counts; this endpoint returns each member as a complete Pod object.", notSimulated("the sandbox has no instant clusters (POST /v2/clusters answers 400)")],
  // /paths/~1v2~1serverless/post
  ["/paths/~1v2~1serverless/post", "Callers specify exactly one of `gpu` or `cpu`; neither or both returns 400.", rule("serverless.exactlyOneComputeKind")],
  ["/paths/~1v2~1serverless/post", "Container settings come from the body, from a serverless template referenced by `templateId` (body fields override the template's), or both; `image` is required unless `templateId` is set.", handler("sandbox/routes/serverless.ts", "app.post")],
  ["/paths/~1v2~1serverless/post", "The CUDA constraints live on `gpu` — `gpu.allowedCudaVersions` and `gpu.minCudaVersion` — so a CPU create cannot express them and the schema rejects the attempt with a 422.", schema("EndpointCpuConfig has no CUDA fields and CreateEndpointRequest is closed")],
  ["/paths/~1v2~1serverless/post", "A non-empty set and a floor are mutually exclusive (400 if both are sent); an explicit empty set states no constraint and may accompany a floor.", rule("pods.cudaConstraintsMutuallyExclusive")],
  ["/paths/~1v2~1serverless/post", "Keep at least one type in the selection — upstream rejects a selection that leaves none.", rule("serverless.selectionKeepsAType")],
  // /paths/~1v2~1serverless~1{id}/patch
  ["/paths/~1v2~1serverless~1{id}/patch", "This is a PATCH: only the fields present in the body are changed; omitted fields are left untouched.", handler("sandbox/routes/serverless.ts", "app.patch")],
  ["/paths/~1v2~1serverless~1{id}/patch", "`cpu` completely replaces a CPU endpoint's selection; compute family is immutable.", rule("serverless.computeFamilyImmutable")],
  ["/paths/~1v2~1serverless~1{id}/patch", "`gpu` on CPU, `cpu` on GPU, or both fields returns 400.", rule("serverless.computeFamilyImmutable")],
  // /paths/~1v2~1serverless~1{id}~1workers/get
  ["/paths/~1v2~1serverless~1{id}~1workers/get", "Only currently active workers are included; scaled-down workers are not returned.", handler("sandbox/routes/serverless.ts", "workersFor")],
  // /paths/~1v2~1templates~1{id}/patch
  ["/paths/~1v2~1templates~1{id}/patch", "This is a PATCH: only the fields present in the body are changed; omitted fields are left untouched.", handler("sandbox/routes/templates.ts", "app.patch")],
  ["/paths/~1v2~1templates~1{id}/patch", "Only the template's owner can update it (authenticated via the request's API key); public catalog templates are readable via GET but return `404` here.", rule("templates.ownedTemplateOnly")],
  // /paths/~1v2~1templates~1{id}/delete
  ["/paths/~1v2~1templates~1{id}/delete", "Only the template's owner can delete it — public catalog templates return `404` here.", rule("templates.ownedTemplateOnly")],
  ["/paths/~1v2~1templates~1{id}/delete", "Rejected if the template is currently referenced by a pod (see that pod's `template` field) or bound to a serverless endpoint.", notSimulated("v2 pods and endpoints keep no link to the template they were created from (`template` stays null), so no sandbox resource can reference one")],
  // /paths/~1v2~1templates~1{id}/delete/responses/400
  ["/paths/~1v2~1templates~1{id}/delete/responses/400", "Template is in use by a pod or serverless endpoint and cannot be deleted", notSimulated("v2 pods and endpoints keep no link to the template they were created from (`template` stays null), so no sandbox resource can reference one")],
  // /paths/~1v2~1network-volumes/post
  ["/paths/~1v2~1network-volumes/post", "Required inputs are `name`, `size` (in GB), and `dataCenter`; an optional `type` selects the storage tier and is immutable after creation.", schema("CreateNetworkVolumeRequest required [name, size, dataCenter]")],
  // /paths/~1v2~1network-volumes~1{id}/patch
  ["/paths/~1v2~1network-volumes~1{id}/patch", "Only provided fields are changed.", handler("sandbox/routes/network-volumes.ts", "app.patch")],
  ["/paths/~1v2~1network-volumes~1{id}/patch", "Note: `size` may only increase; attempts to reduce size will be rejected.", handler("sandbox/routes/network-volumes.ts", "can only grow")],
  // /paths/~1v2~1network-volumes~1{id}/patch/responses/400
  ["/paths/~1v2~1network-volumes~1{id}/patch/responses/400", "Invalid request body or size decrease attempted", handler("sandbox/routes/network-volumes.ts", "can only grow")],
  // /paths/~1v2~1registries/post
  ["/paths/~1v2~1registries/post", "Credentials are write-only.", handler("sandbox/routes/registries.ts", "view")],
  // /paths/~1v2~1registries~1{id}/get
  ["/paths/~1v2~1registries~1{id}/get", "`username` and `password` are never included in the response — credentials are write-only, matching `createRegistry`.", handler("sandbox/routes/registries.ts", "view")],
  // /paths/~1v2~1registries~1{id}/delete
  ["/paths/~1v2~1registries~1{id}/delete", "Rejected if any pod currently uses this credential to pull its image.", rule("registries.registryNotUsedByPod", "registries.detachFromTemplates")],
  // /paths/~1v2~1registries~1{id}/delete/responses/400
  ["/paths/~1v2~1registries~1{id}/delete/responses/400", "Registry credential is in use by a pod and cannot be deleted", rule("registries.registryNotUsedByPod")],
  // /paths/~1v2~1catalog~1gpus/get
  ["/paths/~1v2~1catalog~1gpus/get", "Availability is included only when requested with include=AVAILABILITY, which requires `product` — stock differs by product context.", rule("catalog.availabilityFiltersNeedInclude")],
  // /paths/~1v2~1catalog~1gpus~1{id}/get
  ["/paths/~1v2~1catalog~1gpus~1{id}/get", "Availability details are included only when requested with include=AVAILABILITY, which requires `product` — stock differs by product context.", rule("catalog.availabilityFiltersNeedInclude")],
  // /paths/~1v2~1catalog~1cpus/get
  ["/paths/~1v2~1catalog~1cpus/get", "Availability is included only when requested with include=AVAILABILITY, which requires `product` — stock differs by product context.", rule("catalog.availabilityFiltersNeedInclude")],
  // /paths/~1v2~1catalog~1cpus~1{id}/get
  ["/paths/~1v2~1catalog~1cpus~1{id}/get", "Availability details are included only when requested with include=AVAILABILITY, which requires `product` — stock differs by product context.", rule("catalog.availabilityFiltersNeedInclude")],
  // /paths/~1v2~1catalog~1datacenters/get/parameters/2
  ["/paths/~1v2~1catalog~1datacenters/get/parameters/2", "Values within this filter use AND semantics; volumes=STANDARD,HIGH_PERFORMANCE requires both storage types.", rule("catalog.dataCenterMatches")],
  // /paths/~1v2~1catalog~1datacenters/get/parameters/3
  ["/paths/~1v2~1catalog~1datacenters/get/parameters/3", "Values within this filter use AND semantics; compliance=GDPR,SOC_2_TYPE_2 requires both certifications.", rule("catalog.dataCenterMatches")],
  // /paths/~1v2~1catalog~1datacenters/get/parameters/4
  ["/paths/~1v2~1catalog~1datacenters/get/parameters/4", "Filter by global networking support. true returns only data centers that support global networking; false only those that do not.", rule("catalog.dataCenterMatches")],
  // /paths/~1v2~1catalog~1datacenters~1{id}/get
  ["/paths/~1v2~1catalog~1datacenters~1{id}/get", "Availability is included only when requested with include=GPU_AVAILABILITY or include=CPU_AVAILABILITY.", handler("sandbox/routes/catalog.ts", "dcView")],
  // /paths/~1v2~1catalog~1templates/get
  ["/paths/~1v2~1catalog~1templates/get", "At most 100 templates are returned.", info("the sandbox's public catalog holds three templates, far below the cap")],
  // /paths/~1v2~1billing~1pods/get
  ["/paths/~1v2~1billing~1pods/get", "Returns pod-only billing detail for the authenticated user, split into time buckets by startTime/endTime with bucketSize or by lastN recent buckets.", handler("sandbox/routes/billing.ts", "podId")],
  // /paths/~1v2~1billing~1clusters/get
  ["/paths/~1v2~1billing~1clusters/get", "Clusters are GPU-only, so no CPU cost component is returned.", handler("sandbox/routes/billing.ts", "/v2/billing/clusters")],
];

export const ACCOUNTING: AccountedSentence[] = TABLE.map(([pointer, sentence, account]) => ({ pointer, sentence, account }));
