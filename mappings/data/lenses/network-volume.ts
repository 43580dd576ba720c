// Network volumes: v1 dataCenterId ⇄ v2 dataCenter; v2 adds a storage type.
import type { BodyLens } from "../../types.ts";
import { field } from "./field.ts";

const base = [field("name", "name"), field("size", "size")];

export const networkVolumeCreate: BodyLens = {
  name: "network-volume-create",
  v1Schema: "NetworkVolumeCreateInput",
  v2Schema: "CreateNetworkVolumeRequest",
  fields: [...base, field("dataCenterId", "dataCenter")],
  v2Only: [{ v2: "type", note: "v1 volumes were STANDARD; v2 defaults to STANDARD too" }],
};

export const networkVolumeUpdate: BodyLens = {
  name: "network-volume-update",
  v1Schema: "NetworkVolumeUpdateInput",
  v2Schema: "UpdateNetworkVolumeRequest",
  fields: base,
};

export const networkVolumeRecord: BodyLens = {
  name: "network-volume-record",
  v1Schema: "NetworkVolume",
  v2Schema: "NetworkVolume",
  fields: [field("id", "id"), ...base, field("dataCenterId", "dataCenter")],
  v2Only: [{ v2: "type", note: "STANDARD or HIGH_PERFORMANCE" }],
};
