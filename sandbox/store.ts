// In-memory state of one sandbox instance. Records are kept in their v2 response shape (plus a
// few private fields kept beside them), so handlers return them as they are.
// One store per startSandbox() call; all API keys share it (one account).

export type Json = Record<string, any>;

export type PodStatus = "PROVISIONING" | "STARTING" | "RUNNING" | "EXITED" | "ERROR" | "TERMINATED";

export type RegistrySecret = { id: string; name: string; username: string; password: string };

export type EndpointState = {
  endpoint: Json;
  version: number;
  releases: Json[];
  workers: Json[];
};

export class SandboxStore {
  readonly pods = new Map<string, Json>();
  readonly endpoints = new Map<string, EndpointState>();
  readonly templates = new Map<string, Json>();
  readonly networkVolumes = new Map<string, Json & { createdAt?: string }>();
  readonly registries = new Map<string, RegistrySecret>();
  readonly delegations = new Map<string, Json>();
  /** Creation times of volumes (not part of the v2 NetworkVolume shape), for billing. */
  readonly volumeCreatedAt = new Map<string, string>();
  sshKeys: string[] = [];
}
