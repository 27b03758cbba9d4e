import type { WebRoute } from "../route.js";
import { STYLESHEET_PATH } from "./layout.js";

/** Kiln's one stylesheet: readable forms and tables, visible focus, no external fonts or images. */
const CSS = `*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
a{color:#0b57d0}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:1}
header.top{display:flex;align-items:center;justify-content:space-between;padding:8px 24px;background:#24292f;color:#fff}
header.top a,header.top .link{color:#fff}
.brand{font-weight:700;font-size:1.2em;text-decoration:none}
.who{display:flex;gap:12px;align-items:center}.username{opacity:.8}
.frame{display:flex;gap:24px;max-width:1100px;margin:24px auto;padding:0 16px}
nav ul{list-style:none;margin:0;padding:0;min-width:200px}
nav a{display:block;padding:6px 10px;border-radius:6px;text-decoration:none}
nav a[aria-current=page]{background:#ddf4ff;font-weight:600}
main{flex:1;min-width:0;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:16px 24px}
h1{margin-top:0;font-size:1.5em}
.field{margin:12px 0}.field label{display:block;font-weight:600;margin-bottom:4px}
input[type=text],input[type=email],input[type=password],input[type=date],input[type=number],input[type=url],textarea{width:100%;max-width:520px;padding:6px 8px;border:1px solid #8c959f;border-radius:6px;font:inherit}
textarea{font-family:ui-monospace,monospace}
[aria-invalid=true]{border-color:#cf222e}
.hint{margin:4px 0 0;color:#59636e;font-size:.9em}
.field-errors{margin:4px 0 0;padding-left:18px;color:#cf222e}
.checkbox{margin:6px 0}
button{font:inherit;padding:6px 14px;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
button.danger{background:#cf222e;border-color:#cf222e}
button.link{background:none;border:none;padding:0;text-decoration:underline}
form.inline{display:inline}
.flash{padding:8px 12px;border-radius:6px;margin:12px 0}
.flash.notice{background:#dafbe1;border:1px solid #4ac26b}
.flash.alert{background:#ffebe9;border:1px solid #ff8182}
.flash ul{margin:0;padding-left:18px}
.secret{font-family:ui-monospace,monospace;background:#f6f8fa;border:1px solid #d0d7de;padding:6px 8px;border-radius:6px;word-break:break-all}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #d0d7de;vertical-align:top}
.narrow{max-width:420px;margin:48px auto}
`;

/** `GET /assets/kiln.css`: the stylesheet, cacheable for a day. */
export const stylesheetRoute: WebRoute = {
  method: "GET",
  path: STYLESHEET_PATH,
  handle: async (_web, req, res) => {
    res.writeHead(200, {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Length": Buffer.byteLength(CSS),
    });
    res.end(req.method === "HEAD" ? undefined : CSS);
    return { status: 200, userId: null };
  },
};
