// Records relayed to the browser by the app's own routes, in each framework's convention: the code
// fetching the route is followed to its reads (relay-routes.ts, relay-consumers.ts,
// consumer-reads.ts), and where it cannot be, the project-wide word search decides. Every tree
// holds an unrelated module reading a `costPerHr` of its own: followed, the relay goes through the
// adapter; not followed, that module blocks it. (The Next.js app router is in fixtures relays/.)
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCodemod } from "../../codemod/project.ts";

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

const UNRELATED = { "lib/offers.ts": "export function daily(offer: { costPerHr: number }): number {\n  return offer.costPerHr * 24;\n}\n" };

/** The relay's file as written, then the reasons of its findings (a mark names its first problem; the finding has them all). */
async function rewrite(files: Record<string, string>, relay: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "relay-consumers-"));
  temps.push(dir);
  for (const [name, text] of Object.entries({ ...UNRELATED, ...files })) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const { findings } = await runCodemod({ paths: [dir], write: true });
  return [readFileSync(path.join(dir, relay), "utf8"), ...findings.filter((f) => f.file === relay).map((f) => f.reason)].join("\n");
}

const V1_FETCH = (what: string) => `const r = await fetch(\`https://rest.runpod.io/v1/${what}\`);`;

describe("relayed records: the route's fetchers decide", () => {
  it("Express `app.get('/api/pods/:id')` ⇄ `fetch('/api/pods/' + id)`", async () => {
    const out = await rewrite({
      "server.ts": ['import express from "express";', "const app = express();", 'app.get("/api/pods/:id", async (req: any, res: any) => {', `  ${V1_FETCH("pods/${req.params.id}")}`, "  const pod = await r.json();", "  res.status(200).json(pod);", "});", ""].join("\n"),
      "public/pod.ts": ['export async function show(id: string, el: { textContent: string }) {', '  const res = await fetch("/api/pods/" + id);', "  const { name, imageName } = await res.json();", "  el.textContent = `${name} ${imageName}`;", "}", ""].join("\n"),
    }, "server.ts");
    expect(out).toContain("v2Adapter.toV1Record.pod(await r.json())");
    expect(out).toContain("which the code fetching /api/pods/:id does not read");
  });

  it("Next.js `pages/api/pods.ts` ⇄ a page reading `costPerHr` through axios: marked, naming the read", async () => {
    const out = await rewrite({
      "pages/api/pods.ts": ["export default async function handler(_req: any, res: any) {", `  ${V1_FETCH("pods")}`, "  res.json(await r.json());", "}", ""].join("\n"),
      "components/Rates.tsx": ['import axios from "axios";', "export async function rates(): Promise<number[]> {", '  const { data } = await axios.get("/api/pods");', "  return data.map((p: any) => p.costPerHr);", "}", ""].join("\n"),
    }, "pages/api/pods.ts");
    expect(out).toContain("TODO(v2-migration)");
    expect(out).toContain("the record is read for costPerHr (components/Rates.tsx:4, fetched from /api/pods)");
  });

  it("SvelteKit `+server.ts` `json(pod)` ⇄ a `+page.ts` load with `[id]`", async () => {
    const out = await rewrite({
      "src/routes/api/pods/[id]/+server.ts": ['import { json } from "@sveltejs/kit";', "export async function GET({ params }: { params: { id: string } }) {", `  ${V1_FETCH("pods/${params.id}")}`, "  const pod = await r.json();", "  return json(pod);", "}", ""].join("\n"),
      "src/routes/pods/[id]/+page.ts": ["export async function load({ fetch, params }: any) {", "  const res = await fetch(`/api/pods/${params.id}`);", "  const pod = await res.json();", "  return { title: pod.name, image: pod.imageName };", "}", ""].join("\n"),
    }, "src/routes/api/pods/[id]/+server.ts");
    expect(out).toContain("v2Adapter.toV1Record.pod(await r.json())");
  });

  it("Nuxt `server/api/pods/index.get.ts` ⇄ `useFetch('/api/pods')` in a composable", async () => {
    const out = await rewrite({
      "server/api/pods/index.get.ts": ["declare function defineEventHandler(fn: () => unknown): unknown;", "export default defineEventHandler(async () => {", `  ${V1_FETCH("pods")}`, "  const pods = await r.json();", "  return pods;", "});", ""].join("\n"),
      "composables/usePodNames.ts": ["declare function useFetch(url: string): Promise<{ data: { value: any } }>;", "export async function usePodNames() {", '  const { data } = await useFetch("/api/pods");', "  return (data.value ?? []).map((p: any) => p.name);", "}", ""].join("\n"),
    }, "server/api/pods/index.get.ts");
    expect(out).toContain('v2Adapter.toV1List(await r.json(), "ListPods")');
  });

  it("falls back to the word search where the route is an SWR key, or a page of another language names it", async () => {
    const route = ["export async function GET(): Promise<Response> {", `  ${V1_FETCH("pods")}`, "  return Response.json(await r.json());", "}", ""].join("\n");
    const swr = await rewrite({
      "app/api/pods/route.ts": route,
      "app/pods/usePods.ts": ['import useSWR from "swr";', 'export const usePods = () => useSWR("/api/pods", (u: string) => fetch(u).then((x) => x.json()));', ""].join("\n"),
    }, "app/api/pods/route.ts");
    expect(swr).toContain("lib/offers.ts:2 may read costPerHr (the code fetching its route was not followed: app/pods/usePods.ts:2");
    const vue = await rewrite({ "app/api/pods/route.ts": route, "components/Pods.vue": '<script setup>\nconst { data } = await useFetch("/api/pods");\n</script>\n<template><li v-for="p in data">{{ p.name }}</li></template>\n' }, "app/api/pods/route.ts");
    expect(vue).toContain("lib/offers.ts:2 may read costPerHr (the code fetching its route was not followed: components/Pods.vue names /api/pods");
  });
});
