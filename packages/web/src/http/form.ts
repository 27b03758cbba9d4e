import type { IncomingMessage } from "node:http";
import { type Params, readBodyParams } from "@kiln/rest-adapter";

/** The largest form body a page accepts (an SSH key is the longest field, at most 5000 characters). */
export const FORM_BODY_LIMIT = 64 * 1024;

/** A posted form's fields. */
export class Form {
  constructor(readonly params: Params) {}

  /** The field's value as text ("" when absent or not text). */
  text(name: string): string {
    const value = this.params[name];
    return typeof value === "string" ? value : "";
  }

  /** The checked values of a group of checkboxes named `name[]`. */
  list(name: string): string[] {
    const value = this.params[name];
    if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
    return typeof value === "string" ? [value] : [];
  }

  /** True when a checkbox named `name` was checked. */
  checked(name: string): boolean {
    return this.params[name] !== undefined && this.params[name] !== "0";
  }
}

/**
 * Reads a posted form (`application/x-www-form-urlencoded` or `multipart/form-data` fields),
 * refused past {@link FORM_BODY_LIMIT} bytes with the rest adapter's `BodyError`.
 */
export async function readForm(req: IncomingMessage): Promise<Form> {
  return new Form(await readBodyParams(req, FORM_BODY_LIMIT));
}
