import { startWebSession, type WebSession, webSessions } from "@kiln/services";
import { clearCookie } from "../../http/cookies.js";
import type { Form } from "../../http/form.js";
import type { WebRoute } from "../../route.js";
import { ListTable, PostForm, RowAction, Submit } from "../components.js";
import { run, submit } from "../operations.js";
import { pageRoute, SIGN_IN_PATH, type SignedInPage } from "../page.js";
import { SESSION_COOKIE, sessionCookie } from "../visitor.js";

/**
 * Goes on in a new session for this browser, after its own was ended with the others (a password
 * change): the session cookie is set anew with the page's answer.
 */
export async function startFreshSession(page: SignedInPage): Promise<void> {
  const { cookieValue } = await startWebSession(page.web.runtime, {
    userId: page.visitor.actor.user.id,
    address: page.address,
    userAgent: page.req.headers["user-agent"] ?? "",
  });
  page.cookies.push(await sessionCookie(page.web, cookieValue));
}

function SessionList(props: { sessions: WebSession[]; current: number }) {
  return (
    <>
      <p>The browsers signed in as you. Sign out one you do not recognise, or all of them.</p>
      <ListTable id="active_sessions" columns={["Browser", "Address", "Signed in", "Last used"]}>
        {props.sessions.map((session) => (
          <tr key={session.id} id={`session_${session.id}`}>
            <td>{session.user_agent || "Unknown"}</td>
            <td>{session.address}</td>
            <td>{session.created_at}</td>
            <td>{session.last_seen_at}</td>
            <td>
              {session.id === props.current ? (
                <strong>This browser</strong>
              ) : (
                <RowAction
                  action="/profile/active_sessions/revoke"
                  field="id"
                  value={session.id}
                  label="Sign out"
                  id={`revoke_session_${session.id}`}
                  danger={false}
                />
              )}
            </td>
          </tr>
        ))}
      </ListTable>
      <PostForm action="/profile/active_sessions/revoke_all" id="sign_out_everywhere_form">
        <Submit label="Sign out everywhere" id="sign_out_everywhere" danger />
      </PostForm>
    </>
  );
}

/** The active sessions page: the user's signed-in browsers, signed out one by one or all at once. */
export const sessionRoutes: WebRoute[] = [
  pageRoute(
    "GET",
    "/profile/active_sessions",
    async (page) =>
      page.render(
        "Active sessions",
        <SessionList sessions={await run(page, webSessions.listMine)} current={page.visitor.session.id} />,
      ),
    "signed_in",
  ),
  pageRoute(
    "POST",
    "/profile/active_sessions/revoke",
    async (page, form) => {
      const ended = await submit(page, webSessions.endMine, { id: (form as Form).text("id") });
      if (!ended.ok) return page.error(404, "That session was already signed out.");
      return page.redirect("/profile/active_sessions", {
        kind: "notice",
        text: "The session was signed out.",
      });
    },
    "signed_in",
  ),
  pageRoute(
    "POST",
    "/profile/active_sessions/revoke_all",
    async (page) => {
      await run(page, webSessions.endAllMine);
      page.cookies.push(clearCookie(SESSION_COOKIE, { secure: page.secure }));
      return page.redirect(SIGN_IN_PATH, { kind: "notice", text: "You were signed out everywhere." });
    },
    "signed_in",
  ),
];
