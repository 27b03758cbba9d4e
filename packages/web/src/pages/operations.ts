import { decodeParams, type Params } from "@kiln/rest-adapter";
import { invoke, type Operation } from "@kiln/services";
import type { z } from "zod";
import { type FormFailure, formFailure } from "./failures.js";
import type { Page } from "./page.js";

/** What a form's operation gave: its result, or the messages to show with the form again. */
export type Outcome<O> = { ok: true; value: O } | { ok: false; failure: FormFailure };

/**
 * Runs an operation as the page's visitor on a form's fields, decoded with the operation's schema
 * as the API decodes its parameters (strings to numbers and booleans, a missing field named).
 * Expected failures come back as messages for the form; anything else is thrown.
 */
export async function submit<S extends z.ZodObject, O>(
  page: Page,
  operation: Operation<S, O>,
  params: Params,
): Promise<Outcome<O>> {
  try {
    const input = decodeParams(operation.input, params);
    return { ok: true, value: await invoke(operation, page.context, input) };
  } catch (error) {
    return { ok: false, failure: formFailure(error) };
  }
}

/** Runs an operation that takes no input from a form, as the page's visitor. */
export function run<O>(page: Page, operation: Operation<z.ZodType, O>, input: unknown = {}): Promise<O> {
  return invoke(operation, page.context, input);
}
