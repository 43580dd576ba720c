// Every sandbox rule by its qualified name ("pods.mountKindFixedAtCreate"), so the accounting
// table (accounting.ts) can name where each sentence of the v2 document is enforced and a test
// can check that every name it uses exists.
import { catalogRules } from "./catalog.ts";
import { podRules } from "./pods.ts";
import { serverlessRules } from "./serverless.ts";
import { registryRules, templateRules } from "./templates.ts";

export { catalogRules, podRules, serverlessRules, templateRules, registryRules };

export const RULE_GROUPS = {
  catalog: catalogRules,
  pods: podRules,
  serverless: serverlessRules,
  templates: templateRules,
  registries: registryRules,
} as const;

export function ruleExists(qualified: string): boolean {
  const [group, name] = qualified.split(".");
  const rules = (RULE_GROUPS as Record<string, Record<string, unknown>>)[group ?? ""];
  return !!rules && typeof rules[name ?? ""] === "function";
}
