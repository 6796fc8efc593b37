import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeNext } from "@/lib/auth/next-path";
import { currentActor } from "@/lib/auth/session";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = readPageParams("/sign-in", await searchParams);
  if (await currentActor()) redirect("/");
  return (
    <section className="sign-in">
      <h1>Sign in</h1>
      {sp.signedOut ? <p role="status">You are signed out.</p> : null}
      <SignInForm next={safeNext(sp.next)} />
      <p className="hint">
        No account? An admin adds users with <code>npm run -s users -- add NAME --role viewer</code>.
      </p>
    </section>
  );
}
