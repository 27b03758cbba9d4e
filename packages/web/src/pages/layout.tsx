import type { User } from "@kiln/domain";
import type { ComponentChildren } from "preact";
import { PostForm } from "./components.js";
import type { Flash } from "./flash.js";

/** The stylesheet's path; its content is fixed per release, so browsers may keep it. */
export const STYLESHEET_PATH = "/assets/kiln.css";

/** The profile's sections, in the order of its navigation. */
const PROFILE_NAV: readonly { href: string; label: string }[] = [
  { href: "/profile", label: "Account" },
  { href: "/profile/password", label: "Password" },
  { href: "/profile/account", label: "Private token" },
  { href: "/profile/personal_access_tokens", label: "Access tokens" },
  { href: "/profile/applications", label: "Applications" },
  { href: "/profile/two_factor_auth", label: "Two-factor authentication" },
  { href: "/profile/keys", label: "SSH keys" },
  { href: "/profile/active_sessions", label: "Active sessions" },
];

/** What every page shows around its content. */
export interface LayoutProps {
  title: string;
  /** The signed-in user, or null. */
  user: User | null;
  flash: Flash | null;
  /** The current path, marked in the navigation. */
  path: string;
  children: ComponentChildren;
}

/** The page: a header with the signed-in user and sign-out, the profile's navigation, the content. */
export function Layout(props: LayoutProps) {
  const { user } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Kiln`}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/">
            Kiln
          </a>
          {user && (
            <div class="who">
              <span id="current_user">
                {user.name} <span class="username">@{user.username}</span>
              </span>
              <PostForm action="/users/sign_out" id="sign_out_form" class="inline">
                <button type="submit" id="sign_out" class="link">
                  Sign out
                </button>
              </PostForm>
            </div>
          )}
        </header>
        <div class="frame">
          {user && <ProfileNav path={props.path} admin={user.is_admin} />}
          <main id="content" tabIndex={-1}>
            <h1>{props.title}</h1>
            {props.flash && (
              <div
                class={`flash ${props.flash.kind}`}
                role={props.flash.kind === "alert" ? "alert" : "status"}
                id="flash"
              >
                {props.flash.text}
              </div>
            )}
            {props.children}
          </main>
        </div>
      </body>
    </html>
  );
}

function ProfileNav(props: { path: string; admin: boolean }) {
  const links = props.admin
    ? [...PROFILE_NAV, { href: "/admin/application_settings", label: "Application settings" }]
    : PROFILE_NAV;
  return (
    <nav aria-label="Profile">
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} aria-current={link.href === props.path ? "page" : undefined}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
