// Templates: v1 imageName/containerDiskInGb/isPublic/containerRegistryAuthId ⇄ v2 image/disk/public/registry.
import { argv, templateMounts, templateVolumeUpdate } from "../converters.ts";
import type { BodyLens, UnmappedField } from "../../types.ts";
import { convert, field } from "./field.ts";

const entrypoint: UnmappedField = {
  v1: "dockerEntrypoint",
  decision: "reject",
  harmlessValue: [],
  reason: "v2 templates cannot override the image entrypoint; they only take `args`",
  advice: "bake the entrypoint into the image and pass the command in dockerStartCmd",
};

const readme: UnmappedField = {
  v1: "readme",
  decision: "drop-with-warning",
  harmlessValue: "",
  reason: "v2 templates have no readme",
  advice: "keep template documentation next to the image",
};

const fields = [
  field("name", "name"),
  field("imageName", "image"),
  field("containerDiskInGb", "disk"),
  field("env", "env"),
  field("ports", "ports"),
  field("containerRegistryAuthId", "registry"),
  field("isPublic", "public"),
  convert("dockerStartCmd", "args", argv),
];
const volume = convert(["volumeInGb", "volumeMountPath"], "mounts", templateMounts);

export const templateCreate: BodyLens = {
  name: "template-create",
  v1Schema: "TemplateCreateInput",
  v2Schema: "CreateTemplateRequest",
  fields: [...fields, volume, field("isServerless", "serverless"), field("category", "category")],
  unmapped: [entrypoint, readme],
  v1Defaults: { containerDiskInGb: 50, volumeInGb: 20, volumeMountPath: "/workspace", ports: ["8888/http", "22/tcp"], isPublic: false, isServerless: false, category: "NVIDIA" },
  // v2 templates default both to true (console behaviour): pods would get a generated
  // JUPYTER_PASSWORD and the account's SSH keys injected, which v1 templates never did.
  v2Defaults: { startJupyter: false, startSsh: false },
  v2Only: [
    { v2: "startJupyter", note: "v2 default true; the gateway sends false, as v1 templates behaved" },
    { v2: "startSsh", note: "v2 default true; the gateway sends false, as v1 templates behaved" },
    { v2: "allowedCudaVersions", note: "new on v2 templates" },
  ],
};

export const templateUpdate: BodyLens = {
  name: "template-update",
  v1Schema: "TemplateUpdateInput",
  v2Schema: "UpdateTemplateRequest",
  // A v2 template PATCH keeps the mount it does not mention: `volumeInGb: 0` cannot be honoured.
  fields: [...fields, convert(["volumeInGb", "volumeMountPath"], "mounts", templateVolumeUpdate)],
  unmapped: [entrypoint, readme],
};

export const templateRecord: BodyLens = {
  name: "template-record",
  v1Schema: "Template",
  v2Schema: "Template",
  fields: [field("id", "id"), ...fields, volume, field("isServerless", "serverless"), field("category", "category")],
  v1Lost: [
    { v1: "readme", reason: "v2 templates have no readme (a readme sent on create or update is dropped)", advice: "keep template documentation next to the image" },
    { v1: "dockerEntrypoint", reason: "v2 templates cannot override the image entrypoint", advice: "the image's own ENTRYPOINT is used" },
    { v1: "earned", reason: "v2 template records do not report creator earnings", advice: "none" },
    { v1: "runtimeInMin", reason: "v2 template records do not report usage time", advice: "none" },
  ],
  v1FromEmulation: [{ v1: "isRunpod", emulation: "catalogTemplates" }],
  v2Only: [
    { v2: "startJupyter", note: "new in v2" },
    { v2: "startSsh", note: "new in v2" },
  ],
};
