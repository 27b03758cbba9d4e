import type { SshKey } from "@kiln/domain";
import { sshKeys } from "@kiln/services";
import type { Form } from "../../http/form.js";
import type { WebRoute } from "../../route.js";
import { Field, FormErrors, ListTable, PostForm, RowAction, Submit, TextArea } from "../components.js";
import { type FormFailure, NO_FAILURE } from "../failures.js";
import { run, submit } from "../operations.js";
import { pageRoute, type SignedInPage } from "../page.js";

function KeyList(props: { keys: SshKey[] }) {
  if (props.keys.length === 0) return <p id="no_ssh_keys">You have no SSH keys.</p>;
  return (
    <ListTable id="ssh_keys" columns={["Title", "Fingerprint", "Added"]}>
      {props.keys.map((key) => (
        <tr key={key.id} id={`ssh_key_${key.id}`}>
          <td>{key.title}</td>
          <td>
            <code>{key.fingerprint}</code>
          </td>
          <td>{key.created_at}</td>
          <td>
            <RowAction
              action="/profile/keys/delete"
              field="key_id"
              value={key.id}
              label={`Delete ${key.title}`}
              id={`delete_ssh_key_${key.id}`}
            />
          </td>
        </tr>
      ))}
    </ListTable>
  );
}

function KeyForm(props: { failure: FormFailure; title?: string | undefined; keyText?: string | undefined }) {
  const { fields, general } = props.failure;
  const keyErrors = [
    ...(fields["key"] ?? []),
    ...(fields["fingerprint"] ?? []).map((m) => `Fingerprint ${m}`),
  ];
  return (
    <section aria-labelledby="new_key_heading">
      <h2 id="new_key_heading">Add an SSH key</h2>
      <FormErrors errors={general} />
      <PostForm action="/profile/keys" id="new_ssh_key_form">
        <TextArea name="key" label="Key" value={props.keyText ?? ""} required rows={5} errors={keyErrors} />
        <Field name="title" label="Title" value={props.title ?? ""} required errors={fields["title"]} />
        <Submit label="Add key" id="add_ssh_key" />
      </PostForm>
    </section>
  );
}

async function keysPage(page: SignedInPage, failure = NO_FAILURE, entered?: { title: string; key: string }) {
  const keys = await run(page, sshKeys.listMine);
  return page.render(
    "SSH keys",
    <>
      <KeyForm failure={failure} title={entered?.title} keyText={entered?.key} />
      <h2>Your keys</h2>
      <KeyList keys={keys} />
    </>,
    failure === NO_FAILURE ? 200 : 400,
  );
}

async function addKey(page: SignedInPage, form: Form) {
  const entered = { title: form.text("title"), key: form.text("key").trim() };
  const outcome = await submit(page, sshKeys.addMine, entered);
  if (!outcome.ok) return keysPage(page, outcome.failure, entered);
  return page.redirect("/profile/keys", { kind: "notice", text: "The key was added." });
}

/** The SSH keys page: listed, added, deleted. */
export const keyRoutes: WebRoute[] = [
  pageRoute("GET", "/profile/keys", (page) => keysPage(page), "signed_in"),
  pageRoute("POST", "/profile/keys", (page, form) => addKey(page, form as Form), "signed_in"),
  pageRoute(
    "POST",
    "/profile/keys/delete",
    async (page, form) => {
      const removed = await submit(page, sshKeys.removeMine, { key_id: (form as Form).text("key_id") });
      if (!removed.ok) return page.error(404, "That key does not exist.");
      return page.redirect("/profile/keys", { kind: "notice", text: "The key was deleted." });
    },
    "signed_in",
  ),
];
