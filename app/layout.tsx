import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { RoleProvider } from "@/components/auth/role-context";
import { UserMenu } from "@/components/auth/user-menu";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { SyncAge } from "@/components/sync/sync-age";
import { currentActor } from "@/lib/auth/session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Schedscope", template: "%s · Schedscope" },
  description: "Nova filter scheduler workbench: see why hosts are filtered and weighed.",
  icons: { icon: "/favicon.ico" },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await currentActor();
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to main content
        </a>
        <div className="shell">
          <header className="topbar">
            <Link href="/" className="brand">
              Schedscope
            </Link>
            <span className="tagline">Nova filter scheduler workbench</span>
            {actor ? <SyncAge /> : null}
            <UserMenu actor={actor} />
          </header>
          <Nav />
          <main className="content" id="main" tabIndex={-1}>
            {actor?.role === "viewer" ? (
              <p className="viewer-note" role="note">
                You are signed in as a viewer: you can read everything and run trial schedules. Changing the cloud, its
                flavors or its scheduler profiles needs the operator or admin role, so those fields are read-only and
                their buttons disabled.
              </p>
            ) : null}
            <Providers>
              <RoleProvider role={actor?.role ?? null}>{children}</RoleProvider>
            </Providers>
          </main>
        </div>
      </body>
    </html>
  );
}
