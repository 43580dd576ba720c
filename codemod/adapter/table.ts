// The mapping table as the adapter generator reads it: operations, lenses, converters and
// emulation names, passed explicitly so tests can generate from a table of their own.
import type { BodyLens, Converter, OperationMapping } from "../../mappings/types.ts";
import { operations } from "../../mappings/table.ts";
import { lenses } from "../../mappings/data/lenses/index.ts";
import { converters } from "../../mappings/data/converters.ts";
import { emulations } from "../../mappings/data/emulations.ts";

export interface AdapterTable {
  operations: readonly OperationMapping[];
  lenses: Readonly<Record<string, BodyLens>>;
  converters: Readonly<Record<string, Converter>>;
  /** Every emulation name the table defines (each must have a side in emulation-sides.ts). */
  emulations: readonly string[];
}

export const mappingTable: AdapterTable = {
  operations,
  lenses,
  converters,
  emulations: emulations.map((e) => e.name),
};
