import fs from "node:fs";

/** Debian's Chromium: Playwright never downloads a browser here. */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));

/** Flags for a headless Chromium in a container, shared by the e2e suite and the browser benchmark. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
