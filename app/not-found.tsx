import Link from "next/link";

export default function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        No page has this address. Go back to the <Link href="/">overview</Link>.
      </p>
    </section>
  );
}
