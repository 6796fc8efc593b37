import Link from "next/link";

/** A host page for a name no compute node has: say so, not "Not here yet". */
export default function HostNotFound() {
  return (
    <section>
      <h1>No such host</h1>
      <p>
        No compute node of this cloud has that name (a host that was deleted or renamed, or a typo). Find it in the{" "}
        <Link href="/hosts">hosts list</Link>.
      </p>
    </section>
  );
}
