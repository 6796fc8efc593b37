import Link from "next/link";

export default function NotFound() {
  return (
    <section>
      <h1>Not here yet</h1>
      <p>
        This page does not exist (yet). Go back to the <Link href="/">overview</Link>.
      </p>
    </section>
  );
}
