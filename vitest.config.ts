import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${path.resolve(__dirname)}/` },
      // server-only modules are tested in Node: the marker is an empty module here (as under Next's react-server condition)
      {
        find: /^server-only$/,
        replacement: path.resolve(__dirname, "node_modules/next/dist/compiled/server-only/empty.js"),
      },
    ],
  },
  test: {
    environment: "node",
    include: ["**/*.test.ts"],
    exclude: ["e2e/**", "node_modules/**", ".next/**", "lib/generated/**", "test-results/**"],
    // 2 cores: keep the pool small; integration tests each open their own SQLite file.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
