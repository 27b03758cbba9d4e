import type { ComponentChildren } from "preact";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { CSRF_FIELD } from "../http/csrf.js";

/** The CSRF token of the visitor a page is rendered for; every {@link PostForm} carries it. */
export const CsrfToken = createContext("");

/** A form posted to Kiln, with the visitor's CSRF token. */
export function PostForm(props: {
  action: string;
  id?: string;
  class?: string;
  children: ComponentChildren;
}) {
  const token = useContext(CsrfToken);
  return (
    <form method="post" action={props.action} id={props.id} class={props.class}>
      <input type="hidden" name={CSRF_FIELD} value={token} />
      {props.children}
    </form>
  );
}

/** A labelled input; `errors` are shown under it and tied to it for screen readers. */
export function Field(props: {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "date" | "number" | "url";
  value?: string | number | null;
  required?: boolean;
  autocomplete?: string;
  hint?: string | undefined;
  errors?: readonly string[] | undefined;
  autofocus?: boolean;
  /** The input's id when two forms of a page have a field of the same name. */
  id?: string;
}) {
  const id = props.id ?? fieldId(props.name);
  const errors = props.errors ?? [];
  const described = [props.hint ? `${id}_hint` : "", errors.length > 0 ? `${id}_errors` : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value ?? ""}
        required={props.required}
        autocomplete={props.autocomplete}
        autofocus={props.autofocus}
        aria-invalid={errors.length > 0 ? "true" : undefined}
        aria-describedby={described || undefined}
      />
      {props.hint && (
        <p class="hint" id={`${id}_hint`}>
          {props.hint}
        </p>
      )}
      <FieldErrors id={`${id}_errors`} errors={errors} />
    </div>
  );
}

/** A labelled multi-line input. */
export function TextArea(props: {
  name: string;
  label: string;
  value?: string;
  required?: boolean;
  rows?: number;
  errors?: readonly string[] | undefined;
}) {
  const id = fieldId(props.name);
  const errors = props.errors ?? [];
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 4}
        required={props.required}
        aria-invalid={errors.length > 0 ? "true" : undefined}
        aria-describedby={errors.length > 0 ? `${id}_errors` : undefined}
      >
        {props.value ?? ""}
      </textarea>
      <FieldErrors id={`${id}_errors`} errors={errors} />
    </div>
  );
}

/** A labelled checkbox. */
export function Checkbox(props: {
  name: string;
  value?: string;
  label: string;
  checked?: boolean;
  id?: string;
}) {
  const id = props.id ?? fieldId(props.name);
  return (
    <div class="checkbox">
      <input type="checkbox" id={id} name={props.name} value={props.value ?? "1"} checked={props.checked} />
      <label for={id}>{props.label}</label>
    </div>
  );
}

/** The messages of one field. */
function FieldErrors(props: { id: string; errors: readonly string[] }) {
  if (props.errors.length === 0) return null;
  return (
    <ul class="field-errors" id={props.id}>
      {props.errors.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/** Messages about the whole form, announced to screen readers. */
export function FormErrors(props: { errors: readonly string[] }) {
  if (props.errors.length === 0) return null;
  return (
    <div class="flash alert" role="alert" id="form_errors">
      <ul>
        {props.errors.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  );
}

/** A form's submit button. */
export function Submit(props: {
  label: string;
  id?: string;
  danger?: boolean;
  name?: string;
  value?: string;
}) {
  return (
    <button
      type="submit"
      id={props.id}
      class={props.danger ? "danger" : undefined}
      name={props.name}
      value={props.value}
    >
      {props.label}
    </button>
  );
}

/** The id of the input named `name` (`scopes[]` → `scopes`), stable for tests and labels. */
export const fieldId = (name: string): string => name.replace(/\[\]$/, "").replace(/[^A-Za-z0-9_-]/g, "_");

/**
 * A list of the visitor's things as a table: its column headings, then a last column of actions
 * (its heading read by screen readers only); the rows are the children.
 */
export function ListTable(props: { id: string; columns: readonly string[]; children: ComponentChildren }) {
  return (
    <table id={props.id}>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          <th scope="col">
            <span class="skip">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}

/** One action of a row: a one-button form posting the row's id as `field`. */
export function RowAction(props: {
  action: string;
  field: string;
  value: number;
  label: string;
  id: string;
  danger?: boolean;
}) {
  return (
    <PostForm action={props.action} class="inline">
      <input type="hidden" name={props.field} value={props.value} />
      <Submit label={props.label} id={props.id} danger={props.danger ?? true} />
    </PostForm>
  );
}
