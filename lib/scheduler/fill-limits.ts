/** The most boots one fill may make: beyond this a fill is a runaway, not a question. */
export const MAX_FILL_LIMIT = 1_000_000;
