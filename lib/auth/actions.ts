"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeNext } from "@/lib/auth/next-path";
import { signInWithPassword, signOut } from "@/lib/auth/sign-in";
import { prisma } from "@/lib/db";
import { type FieldErrors, NOT_A_FORM } from "@/lib/core/errors";

export type SignInState = { message: string; fieldErrors?: FieldErrors; name?: string } | null;

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  if (!(form instanceof FormData)) return { message: NOT_A_FORM, fieldErrors: { _form: [NOT_A_FORM] } };
  const name = form.get("name");
  const r = await signInWithPassword(
    prisma,
    { name, password: form.get("password") },
    { headers: new Headers(await headers()) },
  );
  if (!r.ok) return { message: r.message, fieldErrors: r.fieldErrors, name: typeof name === "string" ? name : "" };
  redirect(safeNext(form.get("next")));
}

export async function signOutAction(): Promise<void> {
  await signOut(prisma, new Headers(await headers()));
  redirect("/sign-in?signedOut=1");
}
