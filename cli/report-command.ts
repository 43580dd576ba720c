// `v2-bridge report`: one self-contained HTML page joining static audits (code call sites)
// with gateway usage (live calls). Bad input exits 2 with a message naming the input.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { generateReport, ReportInputError } from "../report/index.ts";

interface ReportOptions {
  code: string[];
  traffic?: string;
  trafficToken?: string;
  out?: string;
  linkBase?: string;
  title?: string;
  mappingHref?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description("Write an HTML migration report joining code call sites (audits) with live gateway traffic")
    .option("-c, --code <audit.json>", "static audit from `v2-bridge audit --format json`; repeat for a burn-down over time", collect, [])
    .option("-t, --traffic <url|redis-url|usage.json>", "the gateway's admin URL (--admin-port; reads <url>/_bridge/usage), the gateways' redis:// usage store, or a saved usage JSON file")
    .option("--traffic-token <token>", "bearer token for a gateway started with --admin-token [env V2_BRIDGE_ADMIN_TOKEN]")
    .option("-o, --out <file>", "write the HTML here (default: standard output)")
    .option("--link-base <url>", "link call sites to <url><file>#L<line> (e.g. a repository browser) instead of file://; http(s):// or file:// only")
    .option("--title <text>", "page title")
    .option("--mapping-href <url>", "link the page's mentions of the mapping table here (e.g. docs/mapping.md in your repository browser); http(s):// or file:// only")
    .addHelpText(
      "after",
      `
Examples:
  v2-bridge audit --format json > audit.json
  v2-bridge report --code audit.json --traffic http://localhost:8081 --out report.html   # the gateway's admin port
  v2-bridge report --code audit-2026-10-01.json --code audit-2026-11-01.json --traffic usage.json --out report.html

Exit codes: 0 written, 2 an input is missing, unreadable or malformed, or a link option is not an http(s):// or file:// URL.`,
    )
    .action(async (opts: ReportOptions) => {
      try {
        if (!opts.code.length && !opts.traffic) {
          throw new ReportInputError("give at least one input: --code <audit.json> and/or --traffic <url|usage.json>");
        }
        const { html, model } = await generateReport({
          code: opts.code,
          traffic: opts.traffic,
          trafficToken: opts.trafficToken ?? (process.env.V2_BRIDGE_ADMIN_TOKEN || undefined),
          // The gateway's own Redis reader, loaded only for a redis:// source.
          redisReader: () => import("../gateway/usage/usage-redis.ts"),
          linkBase: opts.linkBase,
          title: opts.title,
          mappingDocHref: opts.mappingHref,
        });
        if (opts.out) {
          mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
          writeFileSync(opts.out, html);
          const t = model.totals;
          process.stderr.write(
            `v2-bridge report: wrote ${opts.out} (${t.codeSites} call sites in code, ${t.liveRequests} live requests from ${t.liveClients} clients, ${t.operationsInUse} of ${t.tableOperations} v1 operations in use)\n`,
          );
        } else {
          process.stdout.write(html);
        }
      } catch (err) {
        if (err instanceof ReportInputError) {
          process.stderr.write(`v2-bridge report: ${err.message}\n`);
          process.exitCode = 2;
          return;
        }
        throw err;
      }
    });
}
