import Link from "next/link";
import type { ReactNode } from "react";
import { HistoryLink } from "@/components/audit/history-link";

/**
 * The head of one record's page (a host, an aggregate, a flavor): the way back
 * to its list, its name, its entries in the audit trail, then `children`.
 */
export function RecordHead({
  list,
  listHref,
  entity,
  name,
  entityKey = name,
  children,
}: {
  /** the list's title, e.g. "Hosts" */
  list: string;
  listHref: string;
  /** the audit trail's entity, e.g. "host" */
  entity: string;
  name: string;
  /** the record's key in the audit trail, when not its name (an instance's uuid) */
  entityKey?: string;
  children: ReactNode;
}) {
  return (
    <>
      <p className="breadcrumb">
        <Link href={listHref}>{list}</Link> / {name}
      </p>
      <div className="page-head">
        <h1>{name}</h1>
        <HistoryLink entity={entity} entityKey={entityKey} />
        {children}
      </div>
    </>
  );
}
