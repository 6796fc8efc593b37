/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // better-sqlite3 is a native addon: keep it (and the Prisma adapter) out of the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  experimental: {
    // The proxy sees a copy of each request body up to this size and cuts the
    // rest silently: one byte past the upload limit (MAX_BUNDLE_BYTES in
    // lib/openstack/read-bundle.ts), so a larger upload is seen as such and answered 413.
    proxyClientMaxBodySize: 200 * 1024 * 1024 + 1,
  },
  // The proxy sets these on what it answers; here for the rest (static files).
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'; object-src 'none'; base-uri 'self'" },
        ],
      },
    ];
  },
};

module.exports = nextConfig;
