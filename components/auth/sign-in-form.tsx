"use client";

import { useActionState } from "react";
import { type SignInState, signInAction } from "@/lib/auth/actions";
import { Field } from "@/components/forms/form-kit";

export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, null);
  const form = { errors: (f: string) => state?.fieldErrors?.[f] };
  return (
    <form action={action} className="sign-in-form" aria-label="Sign in">
      <input type="hidden" name="next" value={next} />
      <Field form={form} name="name" label="Name" autoComplete="username" defaultValue={state?.name ?? ""} />
      <Field form={form} name="password" label="Password" type="password" autoComplete="current-password" />
      {state?.message ? (
        <p className="form-status bad" role="alert">
          {state.message}
        </p>
      ) : null}
      <button type="submit" className="btn primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
