import type { User } from "@kiln/domain";
import { h } from "preact";
import { render } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { CsrfToken, PostForm } from "./components.js";
import { Layout } from "./layout.js";

const user = {
  id: 1,
  username: "alice",
  name: "<script>alert(1)</script>",
  is_admin: false,
} as User;

describe("the layout", () => {
  it("escapes a user's name: a <script> in it is text", () => {
    const html = render(h(Layout, { title: "Account", user, flash: null, path: "/profile", children: null }));
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script>alert(1)&lt;/script>");
  });

  it("puts the visitor's CSRF token in every form, the sign-out form too", () => {
    const html = render(
      h(CsrfToken.Provider, {
        value: "token-123",
        children: h(Layout, {
          title: "Keys",
          user,
          flash: { kind: "notice", text: "<b>saved</b>" },
          path: "/profile/keys",
          children: h(PostForm, { action: "/profile/keys", children: null }),
        }),
      }),
    );
    expect(html.match(/name="authenticity_token" value="token-123"/g)).toHaveLength(2);
    expect(html).toContain("&lt;b>saved&lt;/b>");
    expect(html).toContain('href="/profile/keys" aria-current="page"');
  });
});
