/**
 * The one record-id rule of every input: a whole number from 1 to the
 * database's largest Int, given as a number (an action's argument) or as
 * the digits of a hidden input. Errors name the field.
 */
import { z } from "zod";
import { recordIdOf } from "./input-limits";

export const recordId = (field = "id", what = "a record id") =>
  z.unknown().transform((v, ctx): number => {
    if (v === undefined || v === null || v === "") {
      ctx.addIssue({ code: "custom", message: `${field}: is required` });
      return z.NEVER;
    }
    const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,10}$/.test(v) ? Number(v) : Number.NaN;
    const id = recordIdOf(n);
    if (id === null) {
      ctx.addIssue({ code: "custom", message: `${field}: must be ${what}` });
      return z.NEVER;
    }
    return id;
  });
