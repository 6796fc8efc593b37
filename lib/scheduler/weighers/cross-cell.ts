import type { WeigherFactory } from "../plugin";

/** CrossCellWeigher: prefers the source cell on cross-cell moves; 0 for every boot. */
export const CrossCellWeigher: WeigherFactory = (config) => ({
  name: "CrossCellWeigher",
  weigh: () => 0,
  sameForEveryHost: () => 0,
  multiplier: (host) =>
    host.aggregates.weightMultiplier("cross_cell_move_weight_multiplier", config.crossCellMoveWeightMultiplier),
});
