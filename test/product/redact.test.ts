// One idea of what an API key looks like (product/redact.ts), and both outputs hide every shape in
// it: the gateway's log lines and messages, and the codemod's report snippets (source files and
// scripts, from a real audit of files on disk). The table is the module's own, so a shape added
// there is checked here in both outputs.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";
import { redact } from "../../codemod/redact.ts";
import { redactText as redactScriptLine } from "../../codemod/text-files.ts";
import { loggerOption } from "../../gateway/observability/logging.ts";
import { redactText, redactUrl } from "../../gateway/observability/redact.ts";
import { KEY_SHAPES } from "../../product/redact.ts";

/** Each shape's example, and edge cases of the shapes. */
const EXAMPLES: { text: string; secret: string }[] = [
  ...KEY_SHAPES.map((s) => s.example),
  { text: "key rpa_AB12", secret: "rpa_AB12" },
  { text: "GET /v1/pods/sandbox_demo-key_1", secret: "sandbox_demo-key_1" },
  { text: "bearer sandbox_SECRETzq81kXv0", secret: "SECRETzq81kXv0" },
  { text: "export RUNPOD_KEY='Zx9_Qw8-Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm'", secret: "Zx9_Qw8-Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm" },
];

const temps: string[] = [];
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })));

/** Gateway log lines: a pino logger with the gateway's own options (serializers and censored paths). */
function gatewayLog(write: (log: ReturnType<typeof Fastify>["log"]) => void): string {
  let out = "";
  const stream = new Writable({ write: (c, _e, done) => ((out += c.toString()), done()) });
  const app = Fastify({ logger: loggerOption({ level: "info", stream }) as never });
  write(app.log);
  void app.close();
  return out;
}

describe("one table of key shapes, hidden by both outputs", () => {
  it("every shape has an example whose secret its own pattern cuts", () => {
    expect(KEY_SHAPES.length).toBeGreaterThanOrEqual(3);
    for (const shape of KEY_SHAPES) expect(shape.example.text.replace(shape.pattern, "X"), shape.name).not.toContain(shape.example.secret);
  });

  it("a shape's hint is in every text its pattern matches (so skipping a text without it loses nothing)", () => {
    const texts = EXAMPLES.flatMap((e) => [e.text, e.text.toUpperCase(), e.text.toLowerCase(), `x%2F${e.text}`, `"${e.secret}"`]);
    for (const shape of KEY_SHAPES) {
      for (const text of texts) {
        shape.pattern.lastIndex = 0;
        if (shape.pattern.test(text)) expect(shape.hint.test(text), `${shape.name}: ${text}`).toBe(true);
      }
      shape.pattern.lastIndex = 0;
    }
  });

  it.each(EXAMPLES)("gateway: $text", ({ text, secret }) => {
    expect(redactText(`upstream said: ${text}`)).not.toContain(secret);
    expect(redactText(`upstream said: ${text}`)).toContain("[redacted]");
    // The log line of an error whose message quotes it, and of a warning that echoes it.
    const log = gatewayLog((l) => {
      l.error({ err: new Error(`v2 answered 400: ${text}`) }, "v1 translation failed");
      l.warn({ warnings: [redactText(text)] }, "warnings");
    });
    expect(log.trim().split("\n")).toHaveLength(2);
    expect(log).not.toContain(secret);
  });

  it("gateway: a key in a request's path is cut from the logged URL, also after a percent-escape", () => {
    for (const key of ["rpa_5NQ2X8W1PLKD0F7H3JVT9M6C4B2Z", "rpa_AB12", "sandbox_demo-key_1"]) {
      for (const url of [`/v1/pods/${key}`, `/v1/pods/x%2F${key}?desiredStatus=RUNNING`, `/v1/pods/%20${key}`]) {
        const log = gatewayLog((l) => l.info({ req: { method: "GET", url, headers: {} } }, "request completed"));
        expect(log, url).toContain("[redacted]");
        expect(log, url).not.toContain(key.slice(4));
        expect(redactUrl(url), url).not.toContain(key);
      }
    }
  });

  it.each(EXAMPLES)("codemod: $text", ({ text, secret }) => {
    expect(redact(`const x = call(\`${text}\`);`)).not.toContain(secret);
    expect(redact(`// ${text}`)).toContain("<redacted>");
    expect(redactScriptLine(`curl https://rest.runpod.io/v1/pods # ${text}`)).not.toContain(secret);
  });

  it("codemod: a real audit of a project and a script quoting every example reports no secret", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "v2b-redact-"));
    temps.push(dir);
    const ts = EXAMPLES.map((e, i) => `export const c${i} = () => fetch("https://rest.runpod.io/v1/pods", { headers: { "X-Note": \`${e.text}\` } });`);
    writeFileSync(path.join(dir, "client.ts"), ts.join("\n") + "\n");
    writeFileSync(path.join(dir, "run.sh"), EXAMPLES.map((e) => `curl https://rest.runpod.io/v1/pods # ${e.text}`).join("\n") + "\n");
    const result = await runCodemod({ paths: [dir], textFiles: true });
    const snippets = result.findings.map((f) => f.snippet);
    expect(result.findings.filter((f) => f.file === "client.ts")).toHaveLength(EXAMPLES.length);
    expect(result.findings.filter((f) => f.file === "run.sh")).toHaveLength(EXAMPLES.length);
    for (const { secret } of EXAMPLES) expect(JSON.stringify(result)).not.toContain(secret);
    expect(snippets.every((s) => s.includes("<redacted>"))).toBe(true);
  });
});
