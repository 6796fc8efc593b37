/**
 * The header's badge: how old the cloud Schedscope shows is (its newest
 * successful sync). Nothing before the first sync.
 */
import Link from "next/link";
import { prisma } from "@/lib/db";
import { newestSyncAt } from "@/lib/sync/run";

function age(ms: number): string {
  const m = Math.floor(ms / 60_000);
  if (m < 1) return "just now";
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

export async function SyncAge() {
  let at: Date | null = null;
  try {
    at = await newestSyncAt(prisma);
  } catch {
    return null;
  }
  if (!at) return null;
  return (
    <Link href="/connections" className="sync-age" title={`newest sync ${at.toISOString()}`}>
      Synced <time dateTime={at.toISOString()}>{age(Date.now() - at.getTime())}</time>
    </Link>
  );
}
