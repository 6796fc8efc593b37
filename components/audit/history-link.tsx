import Link from "next/link";
import { queryString } from "@/components/ui/pager";

/** "History": this entity's entries in the audit trail. */
export function HistoryLink({ entity, entityKey }: { entity: string; entityKey: string }) {
  return (
    <Link href={`/audit${queryString({ entity, key: entityKey })}`} className="history-link">
      History
    </Link>
  );
}
