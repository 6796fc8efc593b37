"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const NAV_ITEMS = [
  { href: "/", label: "Overview" },
  { href: "/hosts", label: "Hosts" },
  { href: "/aggregates", label: "Aggregates" },
  { href: "/flavors", label: "Flavors" },
  { href: "/images", label: "Images" },
  { href: "/server-groups", label: "Server groups" },
  { href: "/instances", label: "Instances" },
  { href: "/config", label: "Config" },
  { href: "/schedule", label: "Schedule" },
  { href: "/runs", label: "Runs" },
  { href: "/capacity", label: "Capacity" },
  { href: "/explain", label: "Explain" },
  { href: "/import", label: "Import" },
  { href: "/connections", label: "Connections" },
  { href: "/history", label: "History" },
  { href: "/audit", label: "Audit" },
] as const;

export function Nav() {
  const pathname = usePathname() ?? "/";
  return (
    <nav className="nav" aria-label="Main">
      <ul>
        {NAV_ITEMS.map((item) => {
          const active =
            item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link href={item.href} aria-current={active ? "page" : undefined}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
