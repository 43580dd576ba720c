// Container registry credentials: same fields, new path (/containerregistryauth → /v2/registries).
import type { BodyLens } from "../../types.ts";
import { field } from "./field.ts";

export const registryCreate: BodyLens = {
  name: "registry-create",
  v1Schema: "ContainerRegistryAuthCreateInput",
  v2Schema: "CreateRegistryRequest",
  fields: [field("name", "name"), field("username", "username"), field("password", "password")],
};

export const registryRecord: BodyLens = {
  name: "registry-record",
  v1Schema: "ContainerRegistryAuth",
  v2Schema: "Registry",
  fields: [field("id", "id"), field("name", "name")],
};
