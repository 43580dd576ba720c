// The local servers of one run: a fresh seeded sandbox (the v2 host's requests), recorded, and a
// gateway in front of it (the v1 host's requests). Each run gets its own pair, so the two runs
// start from the same state and the same seed.
import { startGateway, type Gateway } from "../gateway/server.ts";
import { buildSandboxApp } from "../sandbox/server.ts";
import type { SandboxStore } from "../sandbox/store.ts";
import { recordHits, type Hit } from "./recorder.ts";

export type ServerOptions = {
  seed: string;
  bootMs: number;
  /** The v2 document for the sandbox's validation (false: none). */
  openapiPath: string | false;
  /** Where the gateway reads the v1 document (false: none). */
  referenceDir?: string | false;
};

export type RunServers = {
  sandboxUrl: string;
  gatewayUrl: string;
  store: SandboxStore;
  hits(): Hit[];
  close(): Promise<void>;
};

export async function startRunServers(options: ServerOptions): Promise<RunServers> {
  // Rate limits are off: the gateway's extra reads would make the two runs meet them at different
  // calls, and they say nothing about a migration.
  const { app, store } = buildSandboxApp({ openapiPath: options.openapiPath, seed: options.seed, bootMs: options.bootMs, rateLimit: false, warn: () => {} });
  const hits = recordHits(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as { port: number }).port;
  const sandboxUrl = `http://127.0.0.1:${port}`;
  let gateway: Gateway;
  try {
    gateway = await startGateway({ upstream: sandboxUrl, port: 0, adminPort: 0, usageStore: "memory", referenceDir: options.referenceDir, fingerprintSalt: "v2-bridge-verify" });
  } catch (error) {
    await app.close();
    throw error;
  }
  return {
    sandboxUrl,
    gatewayUrl: gateway.url,
    store,
    hits,
    async close() {
      await gateway.close();
      await app.close();
    },
  };
}
