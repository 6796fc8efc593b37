"use client";

import { useActionState } from "react";
import { type SignInState, signInAction } from "@/app/sign-in/actions";

export function SignInForm({ next }: { next: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, null);
  const err = (f: string) => state?.fieldErrors?.[f]?.join(" ");
  return (
    <form action={action} className="sign-in-form" aria-label="Sign in">
      <input type="hidden" name="next" value={next} />
      <div className={`field ${err("name") ? "has-error" : ""}`}>
        <label htmlFor="sign-in-name">Name</label>
        <input
          id="sign-in-name"
          name="name"
          autoComplete="username"
          defaultValue={state?.name ?? ""}
          aria-invalid={err("name") ? true : undefined}
        />
        {err("name") ? <span className="field-error">{err("name")}</span> : null}
      </div>
      <div className={`field ${err("password") ? "has-error" : ""}`}>
        <label htmlFor="sign-in-password">Password</label>
        <input
          id="sign-in-password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={err("password") ? true : undefined}
        />
        {err("password") ? <span className="field-error">{err("password")}</span> : null}
      </div>
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
