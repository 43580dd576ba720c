// Template and registry-credential rules the v2 document states in prose (deleteTemplate,
// deleteRegistry, the owner-only template operations).
import { PUBLIC_TEMPLATES } from "../catalog.ts";
import { badRequest, notFound } from "../problem.ts";
import type { SandboxStore } from "../store.ts";

export const templateRules = {
  /** Only the owner can update or delete a template: public catalog templates answer 404. */
  ownedTemplateOnly(store: SandboxStore, id: string): void {
    if (!store.templates.has(id)) {
      const isPublic = PUBLIC_TEMPLATES.some((t) => t.id === id);
      throw notFound(isPublic ? `template ${id} is a public catalog template; only its owner can change it` : `template ${id} not found`);
    }
  },
};

export const registryRules = {
  /** Delete is rejected while a pod pulls its image with the credential. */
  registryNotUsedByPod(store: SandboxStore, id: string): void {
    const pod = [...store.pods.values()].find((p) => p.registry === id);
    if (pod) throw badRequest(`registry credential ${id} is in use by pod ${pod.id} and cannot be deleted`);
  },

  /** Templates do not block the delete: they lose the reference (`registry` becomes null). */
  detachFromTemplates(store: SandboxStore, id: string): void {
    for (const t of store.templates.values()) if (t.registry === id) t.registry = null;
  },
};
