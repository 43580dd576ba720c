// The one v1 client package of the generated monorepo: a fetch wrapper helper, an axios instance
// with a baseURL, and a config object holding the base, each called from resource modules. Every
// v1 call is recorded with its file, line and operation: the sites `audit` must find, no more.

export interface PlantedSite {
  /** Path relative to the tree's root, `/`-separated. */
  file: string;
  line: number;
  operation: string;
}

export interface GeneratedFile {
  rel: string;
  text: string;
}

/** Builds one file line by line; `site(op, line)` records the line it adds as a v1 call site. */
class FileBuilder {
  readonly lines: string[] = [];
  constructor(
    readonly rel: string,
    private readonly sites: PlantedSite[],
  ) {}
  add(...lines: string[]): this {
    this.lines.push(...lines);
    return this;
  }
  site(operation: string, line: string): this {
    this.lines.push(line);
    this.sites.push({ file: this.rel, line: this.lines.length, operation });
    return this;
  }
  file(): GeneratedFile {
    return { rel: this.rel, text: this.lines.join("\n") + "\n" };
  }
}

const HEADER = [`import type { Pod, Endpoint, Template, NetworkVolume, RegistryAuth } from "./types.ts";`, ``];

/** The client package under `dir` (e.g. `packages/cloud-client`), its files and its planted sites. */
export function clientPackage(dir: string, scope: string): { files: GeneratedFile[]; sites: PlantedSite[] } {
  const sites: PlantedSite[] = [];
  const b = (rel: string) => new FileBuilder(`${dir}/${rel}`, sites);
  const files: GeneratedFile[] = [];

  files.push({
    rel: `${dir}/package.json`,
    text: JSON.stringify({ name: `${scope}/cloud-client`, version: "3.4.1", private: true, type: "module", main: "src/index.ts", dependencies: { axios: "^1.7.0" } }, null, 2) + "\n",
  });
  files.push({ rel: `${dir}/README.md`, text: `# cloud-client\n\nTyped helpers for the GPU cloud's REST API, used by the console and the workers.\n\nSet \`CLOUD_API_KEY\` before use.\n` });
  files.push({
    rel: `${dir}/src/types.ts`,
    text: [
      `export interface Pod { id: string; name: string; desiredStatus: string; imageName: string; gpuCount: number }`,
      `export interface Endpoint { id: string; name: string; templateId: string; workersMin: number; workersMax: number }`,
      `export interface Template { id: string; name: string; imageName: string; isServerless: boolean }`,
      `export interface NetworkVolume { id: string; name: string; size: number; dataCenterId: string }`,
      `export interface RegistryAuth { id: string; name: string }`,
      ``,
    ].join("\n"),
  });

  // 1. A fetch wrapper helper: the base is a module constant, the path comes from each caller.
  files.push(
    b("src/http.ts")
      .add(
        `// One place that knows the API's address and how to authenticate.`,
        `const API_BASE = "https://rest.runpod.io/v1";`,
        ``,
        `export class ApiError extends Error {`,
        `  constructor(readonly status: number, message: string) {`,
        `    super(message);`,
        `  }`,
        `}`,
        ``,
        `export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {`,
        `  const res = await fetch(\`\${API_BASE}\${path}\`, {`,
        `    ...init,`,
        `    headers: { Authorization: \`Bearer \${process.env.CLOUD_API_KEY}\`, "Content-Type": "application/json", ...init.headers },`,
        `  });`,
        `  if (!res.ok) throw new ApiError(res.status, await res.text());`,
        `  return (await res.json()) as T;`,
        `}`,
      )
      .file(),
  );
  files.push(
    b("src/pods.ts")
      .add(...HEADER, `import { apiFetch } from "./http.ts";`, ``)
      .add(`export async function listPods(): Promise<Pod[]> {`)
      .site("ListPods", `  return apiFetch<Pod[]>("/pods");`)
      .add(`}`, ``, `export async function getPod(id: string): Promise<Pod> {`)
      .site("GetPod", `  return apiFetch<Pod>(\`/pods/\${id}\`);`)
      .add(`}`, ``, `export async function createPod(name: string, imageName: string, gpuCount = 1): Promise<Pod> {`)
      .site("CreatePod", `  return apiFetch<Pod>("/pods", { method: "POST", body: JSON.stringify({ name, imageName, gpuCount }) });`)
      .add(`}`, ``, `export async function stopPod(id: string): Promise<void> {`)
      .site("StopPod", `  await apiFetch(\`/pods/\${id}/stop\`, { method: "POST" });`)
      .add(`}`, ``, `export async function startPod(id: string): Promise<void> {`)
      .site("StartPod", `  await apiFetch(\`/pods/\${id}/start\`, { method: "POST" });`)
      .add(`}`, ``, `export async function restartPod(id: string): Promise<void> {`)
      .site("RestartPod", `  await apiFetch(\`/pods/\${id}/restart\`, { method: "POST" });`)
      .add(`}`, ``, `export async function deletePod(id: string): Promise<void> {`)
      .site("DeletePod", `  await apiFetch(\`/pods/\${id}\`, { method: "DELETE" });`)
      .add(`}`)
      .file(),
  );
  files.push(
    b("src/billing.ts")
      .add(`import { apiFetch } from "./http.ts";`, ``, `export interface BillingRow { time: string; amount: number }`, ``)
      .add(`export async function podSpend(): Promise<BillingRow[]> {`)
      .site("PodBilling", `  return apiFetch<BillingRow[]>("/billing/pods?bucketSize=day");`)
      .add(`}`, ``, `export async function endpointSpend(): Promise<BillingRow[]> {`)
      .site("EndpointBilling", `  return apiFetch<BillingRow[]>("/billing/endpoints?bucketSize=day");`)
      .add(`}`)
      .file(),
  );

  // 2. An axios instance with a baseURL, shared by two resource modules.
  files.push(
    b("src/axios.ts")
      .add(
        `import axios from "axios";`,
        ``,
        `export const cloud = axios.create({`,
        `  baseURL: "https://rest.runpod.io/v1",`,
        `  timeout: 30_000,`,
        `  headers: { Authorization: \`Bearer \${process.env.CLOUD_API_KEY}\` },`,
        `});`,
      )
      .file(),
  );
  files.push(
    b("src/endpoints.ts")
      .add(...HEADER, `import { cloud } from "./axios.ts";`, ``)
      .add(`export async function listEndpoints(): Promise<Endpoint[]> {`)
      .site("ListEndpoints", `  const { data } = await cloud.get<Endpoint[]>("/endpoints");`)
      .add(`  return data;`, `}`, ``, `export async function getEndpoint(id: string): Promise<Endpoint> {`)
      .site("GetEndpoint", `  const res = await cloud.get<Endpoint>(\`/endpoints/\${id}\`);`)
      .add(`  return res.data;`, `}`, ``, `export async function createEndpoint(name: string, templateId: string): Promise<Endpoint> {`)
      .site("CreateEndpoint", `  const res = await cloud.post<Endpoint>("/endpoints", { name, templateId, workersMin: 0, workersMax: 3 });`)
      .add(`  return res.data;`, `}`, ``, `export async function scaleEndpoint(id: string, workersMax: number): Promise<void> {`)
      .site("UpdateEndpoint", `  await cloud.patch(\`/endpoints/\${id}\`, { workersMax });`)
      .add(`}`, ``, `export async function deleteEndpoint(id: string): Promise<void> {`)
      .site("DeleteEndpoint", `  await cloud.delete(\`/endpoints/\${id}\`);`)
      .add(`}`)
      .file(),
  );
  files.push(
    b("src/templates.ts")
      .add(...HEADER, `import { cloud } from "./axios.ts";`, ``)
      .add(`export async function listTemplates(): Promise<Template[]> {`)
      .site("ListTemplates", `  return (await cloud.get<Template[]>("/templates")).data;`)
      .add(`}`, ``, `export async function createTemplate(name: string, imageName: string): Promise<Template> {`)
      .site("CreateTemplate", `  return (await cloud.post<Template>("/templates", { name, imageName, isServerless: true })).data;`)
      .add(`}`, ``, `export async function deleteTemplate(id: string): Promise<void> {`)
      .site("DeleteTemplate", `  await cloud.delete(\`/templates/\${id}\`);`)
      .add(`}`)
      .file(),
  );

  // 3. A config object carrying the base, read where each request is built.
  files.push(
    b("src/config.ts")
      .add(
        `// Defaults for every client of the GPU cloud in this repository.`,
        `export const cloudConfig = {`,
        `  apiBase: "https://rest.runpod.io/v1",`,
        `  retries: 2,`,
        `  userAgent: "acme-console/3",`,
        `};`,
      )
      .file(),
  );
  const cfgHeaders = `  headers: { Authorization: \`Bearer \${process.env.CLOUD_API_KEY}\`, "User-Agent": cloudConfig.userAgent },`;
  files.push(
    b("src/volumes.ts")
      .add(...HEADER, `import { cloudConfig } from "./config.ts";`, ``)
      .add(`export async function listVolumes(): Promise<NetworkVolume[]> {`)
      .site("ListNetworkVolumes", `  const res = await fetch(\`\${cloudConfig.apiBase}/networkvolumes\`, {`)
      .add(cfgHeaders, `  });`, `  return (await res.json()) as NetworkVolume[];`, `}`, ``)
      .add(`export async function createVolume(name: string, size: number, dataCenterId: string): Promise<NetworkVolume> {`)
      .site("CreateNetworkVolume", `  const res = await fetch(\`\${cloudConfig.apiBase}/networkvolumes\`, {`)
      .add(`    method: "POST",`, cfgHeaders.replace("  headers", "    headers"), `    body: JSON.stringify({ name, size, dataCenterId }),`, `  });`, `  return (await res.json()) as NetworkVolume;`, `}`, ``)
      .add(`export async function deleteVolume(id: string): Promise<void> {`)
      .site("DeleteNetworkVolume", `  await fetch(\`\${cloudConfig.apiBase}/networkvolumes/\${id}\`, { method: "DELETE", headers: { Authorization: \`Bearer \${process.env.CLOUD_API_KEY}\` } });`)
      .add(`}`)
      .file(),
  );
  files.push(
    b("src/registry.ts")
      .add(...HEADER, `import { cloudConfig } from "./config.ts";`, ``)
      .add(`export async function registryAuths(): Promise<RegistryAuth[]> {`)
      .site("ListContainerRegistryAuths", `  const res = await fetch(cloudConfig.apiBase + "/containerregistryauth", { headers: { Authorization: \`Bearer \${process.env.CLOUD_API_KEY}\` } });`)
      .add(`  return (await res.json()) as RegistryAuth[];`, `}`)
      .file(),
  );
  files.push({
    rel: `${dir}/src/index.ts`,
    text: ["pods", "billing", "endpoints", "templates", "volumes", "registry"].map((m) => `export * from "./${m}.ts";`).join("\n") + `\nexport type * from "./types.ts";\n`,
  });
  return { files, sites };
}
