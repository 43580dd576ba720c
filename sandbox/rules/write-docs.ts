// `npm run docs` (second half): writes docs/v2-rules.md from the accounting table.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../openapi/reference.ts";
import { renderRulesMarkdown } from "./markdown.ts";

const out = path.join(REPO_ROOT, "docs", "v2-rules.md");
writeFileSync(out, renderRulesMarkdown());
console.log(`wrote ${path.relative(process.cwd(), out)}`);
