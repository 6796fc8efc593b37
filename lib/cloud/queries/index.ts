/**
 * The read functions of the app, one module per section: the screens' server
 * components (overview, hosts, aggregates, flavors, images, server groups,
 * instances, scheduler profiles), the host search API and tests. Every one
 * takes the database first (`db: Db`: the app's `prisma`, a test's client or
 * a transaction). Big JSON (scenario snapshots, run results) is only parsed
 * by the get* functions that need it.
 */
export * from "./aggregates";
export * from "./zone-totals";
export * from "./headroom";
export * from "./counts";
export * from "./flavors";
export * from "./hosts";
export * from "./images";
export * from "./instances";
export * from "./profiles";
export * from "./server-groups";
export { type KeyValue, likeContains, type Page } from "./shared";
