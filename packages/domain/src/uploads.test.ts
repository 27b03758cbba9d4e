import { describe, expect, it } from "vitest";
import { safeUploadName, servedInline, uploadContentType, uploadLink } from "./uploads.js";

/** UTF-8 length, without Node's Buffer (the domain compiles without Node types). */
const utf8Bytes = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, "x").length;

describe("safeUploadName", () => {
  it.each([
    ["screenshot.png", "screenshot.png"],
    ["report-2016+final_v2.PDF", "report-2016+final_v2.PDF"],
    ["my file (1).txt", "my_file__1_.txt"],
    ["Ünïcødé 名前.md", "Ünïcødé_名前.md"],
    ["../../etc/passwd", "passwd"],
    ["..\\..\\windows\\win.ini", "win.ini"],
    ["/absolute/path/x.png", "x.png"],
    ["dir/", "file"],
    ["..", "file"],
    [".", "file"],
    ["...", "file"],
    ["", "file"],
    ["a..b....c", "a.b.c"],
    ["..hidden", ".hidden"],
    ["nul\u0000byte.png", "nul_byte.png"],
    ["new\nline.txt", "new_line.txt"],
    ["%2e%2e%2fsecret.key", "_2e_2e_2fsecret.key"],
    ['quote"<script>.svg', "quote__script_.svg"],
  ])("%j becomes %j", (sent, safe) => {
    expect(safeUploadName(sent)).toBe(safe);
  });

  it("never leaves a separator, NUL or `..` whatever it is given", () => {
    const nasty = ["a/../b", "..%00/..", "\\\\server\\share\\..\\..", "./.././...//....", "x\u0000/\u0000.."];
    for (const sent of nasty) {
      const safe = safeUploadName(sent);
      expect(safe).not.toMatch(/[/\\\0]|\.\./);
      expect(safe.length).toBeGreaterThan(0);
    }
  });

  it("cuts long names to 200 UTF-8 bytes, keeping the extension", () => {
    const safe = safeUploadName(`${"é".repeat(300)}.jpeg`);
    expect(safe.endsWith(".jpeg")).toBe(true);
    expect(utf8Bytes(safe)).toBeLessThanOrEqual(200);
    expect(utf8Bytes(safe)).toBeGreaterThan(190);
  });
});

describe("uploadLink", () => {
  const secret = "0123456789abcdef0123456789abcdef";

  it("embeds images and videos, as GitLab 8.15 did, with the name without extension as alt", () => {
    expect(uploadLink(secret, "diagram.final.PNG")).toEqual({
      alt: "diagram.final",
      url: `/uploads/${secret}/diagram.final.PNG`,
      markdown: `![diagram.final](/uploads/${secret}/diagram.final.PNG)`,
    });
    const embedded = [
      "a.jpg",
      "a.jpeg",
      "a.gif",
      "a.bmp",
      "a.tiff",
      "a.svg",
      "a.mp4",
      "a.m4v",
      "a.mov",
      "a.webm",
      "a.ogv",
    ];
    for (const name of embedded) {
      expect(uploadLink(secret, name), name).toEqual({
        alt: "a",
        url: `/uploads/${secret}/${name}`,
        markdown: `![a](/uploads/${secret}/${name})`,
      });
    }
  });

  it("links other files under their whole name, alt included", () => {
    expect(uploadLink(secret, "notes.txt")).toEqual({
      alt: "notes.txt",
      url: `/uploads/${secret}/notes.txt`,
      markdown: `[notes.txt](/uploads/${secret}/notes.txt)`,
    });
    for (const name of ["README", "a.ico", "a.tar.gz", ".png"]) {
      expect(uploadLink(secret, name), name).toEqual({
        alt: name,
        url: `/uploads/${secret}/${name}`,
        markdown: `[${name}](/uploads/${secret}/${name})`,
      });
    }
  });
});

describe("serving", () => {
  it("types files by extension and serves only raster images inline", () => {
    expect(uploadContentType("a.PNG")).toBe("image/png");
    expect(uploadContentType("a.jpg")).toBe("image/jpeg");
    expect(uploadContentType("a.exe")).toBe("application/octet-stream");
    expect(uploadContentType("README")).toBe("application/octet-stream");
    expect(servedInline("a.gif")).toBe(true);
    expect(servedInline("a.ico")).toBe(true);
    expect(servedInline("a.svg")).toBe(false);
    expect(servedInline("a.mp4")).toBe(false);
    expect(servedInline("a.html")).toBe(false);
  });
});
