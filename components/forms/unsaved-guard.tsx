"use client";

/**
 * Edits not yet saved are not lost silently: while a form has changes its
 * last save does not include, leaving the page (a link, reload, closing the
 * tab) asks first.
 */
import { type RefObject, useEffect, useState } from "react";

export function useUnsavedGuard(
  formRef: RefObject<HTMLFormElement | null>,
  saved: unknown,
  what: string,
): { dirty: boolean } {
  const [dirty, setDirty] = useState(false);

  // a successful save (a new answer object) means nothing is unsaved any more
  useEffect(() => {
    if (saved) setDirty(false);
  }, [saved]);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const mark = () => setDirty(true);
    form.addEventListener("input", mark);
    form.addEventListener("change", mark);
    return () => {
      form.removeEventListener("input", mark);
      form.removeEventListener("change", mark);
    };
  }, [formRef]);

  useEffect(() => {
    if (!dirty) return;
    const question = `${what} has changes that are not saved. Leave this page and lose them?`;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    // in the capture phase, before the router's own link handling
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!a || a.target === "_blank" || a.getAttribute("href")?.startsWith("#")) return;
      if (a.pathname === window.location.pathname && a.search === window.location.search) return;
      if (!window.confirm(question)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty, what]);

  return { dirty };
}
