import { Checkbox } from "../components.js";

/** The scopes a token or an OAuth application may be given, with what each allows. */
const SCOPES = [
  { value: "api", label: "api: everything you may do, through the API and git" },
  { value: "read_user", label: "read_user: read your own profile (GET /user) and nothing else" },
] as const;

/** The scope checkboxes of a form (`scopes[]`, ids `scopes_api`, `scopes_read_user`). */
export function ScopeChoices(props: { chosen: readonly string[]; errors?: readonly string[] | undefined }) {
  return (
    <fieldset>
      <legend>Scopes</legend>
      {SCOPES.map((scope) => (
        <Checkbox
          key={scope.value}
          name="scopes[]"
          value={scope.value}
          id={`scopes_${scope.value}`}
          label={scope.label}
          checked={props.chosen.includes(scope.value)}
        />
      ))}
      {props.errors && <p class="field-errors">{props.errors.join(", ")}</p>}
    </fieldset>
  );
}
