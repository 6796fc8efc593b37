import { defineWeigher } from "../plugin";

/** CrossCellWeigher: prefers the source cell on cross-cell moves; 0 for every boot. */
export const CrossCellWeigher = defineWeigher({
  name: "CrossCellWeigher",
  doc: "Prefers the source cell on moves.",
  multiplier: "cross_cell_move_weight_multiplier",
  configured: (config) => config.crossCellMoveWeightMultiplier,
  factory: () => ({ weigh: () => 0, sameForEveryHost: () => 0 }),
});
