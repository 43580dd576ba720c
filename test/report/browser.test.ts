// What a person sees: the generated report file and the gateway's live page, opened in headless
// Chromium. Screenshots (desktop and phone width) land in test/output/ for a human to look at.
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../gateway/server.ts";
import { referenceMissingReason } from "../../openapi/reference.ts";
import { BUILT_CLI } from "../helpers/cli.ts";
import { checkUsage } from "../../report/index.ts";
import { startSandbox, type Sandbox } from "../../sandbox/server.ts";
import { browserSuite, chromiumMissing, DESKTOP, launchChromium, outputPath, PHONE } from "./browser.helpers.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, "../..");
const FIX = path.join(here, "fixtures");
const run = promisify(execFile);

const cardValue = (page: Page, id: string) => page.locator(`#${id} .value`).innerText();

/** Requests the page makes other than loading itself (must be none: the page works offline). */
function recordRequests(page: Page, self: string): string[] {
  const extra: string[] = [];
  page.on("request", (req) => {
    if (req.url() !== self) extra.push(req.url());
  });
  return extra;
}

/** The page fits the phone's width; wide tables scroll inside their own box instead. */
async function expectPhoneLayout(page: Page): Promise<void> {
  // Expressions as strings: the project compiles without the DOM library.
  const overflow = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
  expect(overflow).toBeLessThanOrEqual(0);
  const ops = (await page.evaluate(`(() => {
    const box = document.querySelector("#operations .scroll");
    return box ? { scroll: box.scrollWidth, client: box.clientWidth, overflowX: getComputedStyle(box).overflowX } : null;
  })()`)) as { scroll: number; client: number; overflowX: string } | null;
  expect(ops).not.toBeNull();
  expect(ops!.overflowX).toBe("auto");
  expect(ops!.scroll).toBeGreaterThan(ops!.client);
  await expect(page.locator("#operations .scroll-hint").isVisible()).resolves.toBe(true);
}

describe.skipIf(chromiumMissing)(browserSuite("report page in headless Chromium"), () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe("generated file (v2-bridge report)", () => {
    const out = outputPath("report.html");
    const url = pathToFileURL(out).href;
    beforeAll(async () => {
      rmSync(out, { force: true });
      await run(
        process.execPath,
        [
          BUILT_CLI,
          "report",
          ...["audit-2026-11-10.json", "audit-2026-10-01.json", "audit-2026-10-20.json"].flatMap((f) => ["--code", path.join(FIX, f)]),
          "--traffic",
          path.join(FIX, "usage.json"),
          "--out",
          out,
        ],
        { cwd: ROOT, timeout: 30_000 },
      );
    });

    it("shows totals, the reset case first, operations, call-site links and clients; runs nothing and fetches nothing", async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      const extra = recordRequests(page, url);
      const dialogs: string[] = [];
      page.on("dialog", async (d) => {
        dialogs.push(d.message());
        await d.dismiss();
      });
      await page.goto(url);

      await expect(page.locator("h1").innerText()).resolves.toBe("v1 → v2 migration report");
      await expect(cardValue(page, "card-code")).resolves.toBe("9");
      await expect(page.locator("#card-code .sub").innerText()).resolves.toBe("auto 3 · review 4 · no equivalent 2");
      await expect(cardValue(page, "card-calls")).resolves.toBe("61");
      await expect(cardValue(page, "card-clients")).resolves.toBe("3");
      await expect(cardValue(page, "card-ops")).resolves.toBe("7 of 37");
      await expect(page.locator("#progress-text").innerText()).resolves.toContain("30 of 37 v1 operations (81%)");

      // The no-equivalent case sits at the top, with the mapping table's advice.
      const first = page.locator("#attention article").first();
      await expect(first.getAttribute("data-key")).resolves.toBe("ResetPod");
      const firstText = await first.innerText();
      expect(firstText).toContain("What to do: call POST /v1/pods/{podId}/stop then /start");
      expect(firstText).toContain("1 call site in code · 3 live calls from 1 client");
      const headings = await page.locator("h2").allInnerTexts();
      expect(headings[0]).toBe("Needs a decision: no v2 equivalent");

      // Burn-down: the bars' totals are readable text.
      const svg = page.locator("#burndown svg");
      await expect(svg.isVisible()).resolves.toBe(true);
      await expect(svg.locator("text.tot").allTextContents()).resolves.toEqual(["23", "15", "9"]);

      // Operations: one row per v1 operation still in use.
      const rows = page.locator("#operations-table tbody tr");
      await expect(rows.count()).resolves.toBe(10);
      const listPods = page.locator('#operations-table tr[data-key="ListPods"]');
      await expect(listPods.locator('[data-col="calls"]').innerText()).resolves.toMatch(/^40\s/);
      await expect(listPods.locator('[data-col="clients"]').innerText()).resolves.toBe("3");
      await expect(listPods.locator('[data-col="last-seen"]').innerText()).resolves.toBe("2026-11-10 11:00 UTC");
      const startLink = page.locator('#operations-table tr[data-key="StartPod"] a');
      await expect(startLink.innerText()).resolves.toBe("src/pods.ts:12");
      await expect(startLink.getAttribute("href")).resolves.toBe("file:///srv/app/src/pods.ts");
      // Hostile file names and snippets show as text.
      await expect(listPods.locator("a").innerText()).resolves.toBe("src/jobs/<script>alert(1)</script>.ts:7");
      await expect(listPods.locator(".snippet").innerText()).resolves.toContain("<img src=x onerror=alert(1)>");
      await expect(page.locator("script").count()).resolves.toBe(0);
      await expect(page.locator("img").count()).resolves.toBe(0);
      await expect(page.locator('tr[data-key="TeleportPod"]').innerText()).resolves.toContain("not in mapping table");

      // Clients: who is still on v1, and with what.
      await expect(page.locator("#clients-table tbody tr").count()).resolves.toBe(3);
      const bot = await page.locator('#clients-table tr[data-fingerprint="k_3fa9c2e1b0d4"]').innerText();
      expect(bot).toContain("deploy-bot/2.1");
      expect(bot).toMatch(/no equivalent\s+ResetPod ×3/);
      expect(bot).toContain("ListPods ×20");
      await expect(page.locator('#clients-table tr[data-fingerprint="k_77aa00bb11cc"] .ua').innerText()).resolves.toBe(
        "<b>evil-agent</b><script>alert(2)</script>",
      );

      expect(dialogs).toEqual([]);
      expect(extra).toEqual([]);
      await page.screenshot({ path: outputPath("report-desktop.png"), fullPage: true });
      await page.close();
    });

    it("fits a phone: no page-wide horizontal scroll, tables scroll in their box", async () => {
      const page = await browser.newPage({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await page.goto(url);
      await expectPhoneLayout(page);
      // The chart stays legible: its rendered width is the column's, not wider.
      const chart = await page.locator("#burndown svg").boundingBox();
      expect(chart!.width).toBeLessThanOrEqual(PHONE.width);
      expect(chart!.width).toBeGreaterThan(PHONE.width * 0.8);
      await page.screenshot({ path: outputPath("report-phone.png"), fullPage: true });
      await page.close();
    });
  });

  const refMissing = referenceMissingReason();
  describe.skipIf(refMissing)(`live page GET /_bridge/ (sandbox + gateway on loopback)${refMissing ? ` (skipped: ${refMissing})` : ""}`, () => {
    let sandbox: Sandbox;
    let gateway: Gateway;
    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, warn: () => {} });
      gateway = await startGateway({ port: 0, upstream: sandbox.url });
    });
    afterAll(async () => {
      await gateway?.close();
      await sandbox?.close();
    });

    async function v1(token: string, userAgent: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
      const res = await fetch(gateway.url + "/v1" + p, {
        method,
        headers: { authorization: `Bearer ${token}`, "user-agent": userAgent, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }

    it("shows the calls just made through the gateway, per operation and per client", async () => {
      const created = await v1("sandbox_alpha", "nightly-job/3.2", "POST", "/pods", { name: "p1", imageName: "ubuntu:22.04", gpuTypeIds: ["NVIDIA A40"] });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await v1("sandbox_alpha", "nightly-job/3.2", "GET", "/pods")).status).toBe(200);
      expect((await v1("sandbox_alpha", "nightly-job/3.2", "POST", `/pods/${id}/stop`)).status).toBe(200);
      expect((await v1("sandbox_beta", "ops-console/0.9", "GET", "/pods")).status).toBe(200);
      expect((await v1("sandbox_beta", "ops-console/0.9", "POST", `/pods/${id}/reset`)).status).toBe(400);

      const usage = (await (await fetch(gateway.adminUrl + "/_bridge/usage")).json()) as { clients: { fingerprint: string; userAgent: string }[] };
      const alpha = usage.clients.find((c) => c.userAgent === "nightly-job/3.2")!.fingerprint;
      // The gateway's snapshot meets the report's input contract, and the CLI reads it by URL.
      expect(checkUsage(usage)).toEqual({ ok: true });
      const cliOut = outputPath("live-report.html");
      const cli = await run(process.execPath, [BUILT_CLI, "report", "--traffic", gateway.adminUrl, "--out", cliOut], { cwd: ROOT, timeout: 30_000 });
      expect(cli.stderr).toMatch(/5 live requests from 2 clients, 4 of 37 v1 operations in use/);

      const page = await browser.newPage({ viewport: DESKTOP });
      const pageUrl = gateway.adminUrl + "/_bridge/";
      const extra = recordRequests(page, pageUrl);
      const res = await page.goto(pageUrl);
      expect(res!.status()).toBe(200);
      expect(res!.headers()["content-type"]).toMatch(/^text\/html/);

      await expect(cardValue(page, "card-calls")).resolves.toBe("5");
      await expect(cardValue(page, "card-clients")).resolves.toBe("2");
      await expect(cardValue(page, "card-code")).resolves.toBe("—");
      await expect(page.locator(".meta").allInnerTexts()).resolves.toContain("Code: no audit given");

      const reset = page.locator('#attention article[data-key="ResetPod"]');
      await expect(reset.innerText()).resolves.toContain("code not audited · 1 live call from 1 client");

      const rowKeys = await page.locator("#operations-table tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-key")));
      expect(rowKeys).toEqual(["ResetPod", "CreatePod", "ListPods", "StopPod"]);
      const listPods = page.locator('#operations-table tr[data-key="ListPods"]');
      await expect(listPods.locator('[data-col="calls"]').innerText()).resolves.toMatch(/^2\s+200×2$/);
      await expect(listPods.locator('[data-col="clients"]').innerText()).resolves.toBe("2");
      const resetRow = page.locator('#operations-table tr[data-key="ResetPod"]');
      await expect(resetRow.locator('[data-col="calls"]').innerText()).resolves.toMatch(/^1\s+400×1$/);
      // No audit behind the live page: the code columns say so instead of showing zeros.
      await expect(resetRow.locator('[data-col="review"]').innerText()).resolves.toBe("—");
      await expect(resetRow.locator(".sites-cell").innerText()).resolves.toBe("no audit given");

      const alphaRow = await page.locator(`#clients-table tr[data-fingerprint="${alpha}"]`).innerText();
      expect(alphaRow).toContain("nightly-job/3.2");
      expect(alphaRow).toMatch(/CreatePod ×1/);
      expect(alphaRow).toMatch(/StopPod ×1/);
      expect(extra).toEqual([]);
      await page.screenshot({ path: outputPath("live-desktop.png"), fullPage: true });
      await page.close();

      const phone = await browser.newPage({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await phone.goto(pageUrl);
      await expectPhoneLayout(phone);
      await phone.screenshot({ path: outputPath("live-phone.png"), fullPage: true });
      await phone.close();
    });
  });
});
