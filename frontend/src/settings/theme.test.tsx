import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { renderWithClient } from "../test/render";
import { applyTheme, startTheme, THEME_KEY } from "./theme";
import { ThemeChoice } from "./ThemeChoice";

const html = document.documentElement;

/** index.html's browser-bar colours, one per scheme. */
function addThemeColourMetas() {
  for (const [media, content] of [
    ["(prefers-color-scheme: light)", "#f7f7fb"],
    ["(prefers-color-scheme: dark)", "#111318"],
  ] as const) {
    const meta = document.createElement("meta");
    meta.name = "theme-color";
    meta.media = media;
    meta.content = content;
    document.head.append(meta);
  }
}

const barColours = () =>
  [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => meta.content);

describe("The theme", () => {
  beforeEach(addThemeColourMetas);
  afterEach(() => {
    applyTheme("system");
    document.head.querySelectorAll('meta[name="theme-color"]').forEach((meta) => meta.remove());
  });

  it("follows the device until chosen: System is checked and <html> has no data-theme", () => {
    renderWithClient(<ThemeChoice />);
    expect(screen.getByRole("group", { name: "Theme" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "System" })).toBeChecked();
    expect(html.dataset["theme"]).toBeUndefined();
  });

  it("applies a choice at once as <html data-theme> and keeps it in localStorage", async () => {
    const { user } = renderWithClient(<ThemeChoice />);

    await user.click(screen.getByRole("radio", { name: "Dark" }));
    expect(html.dataset["theme"]).toBe("dark");
    expect(localStorage.getItem(THEME_KEY)).toBe("dark");
    expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked();
    expect(barColours()).toEqual(["#111318", "#111318"]);

    await user.click(screen.getByRole("radio", { name: "Light" }));
    expect(html.dataset["theme"]).toBe("light");
    expect(localStorage.getItem(THEME_KEY)).toBe("light");
    expect(barColours()).toEqual(["#f7f7fb", "#f7f7fb"]);
  });

  it("removes the override on System, leaving it to the device again", async () => {
    const { user } = renderWithClient(<ThemeChoice />);
    await user.click(screen.getByRole("radio", { name: "Dark" }));

    await user.click(screen.getByRole("radio", { name: "System" }));
    expect(html.dataset["theme"]).toBeUndefined();
    expect(html).not.toHaveAttribute("data-theme");
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
    expect(barColours()).toEqual(["#f7f7fb", "#111318"]);
  });

  it("is applied on load from what this browser kept, before anything renders", () => {
    localStorage.setItem(THEME_KEY, "dark");
    const stop = startTheme();
    expect(html.dataset["theme"]).toBe("dark");
    stop();

    renderWithClient(<ThemeChoice />);
    expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked();
  });

  it("treats a kept value it doesn't know as System", () => {
    localStorage.setItem(THEME_KEY, "sepia");
    const stop = startTheme();
    expect(html.dataset["theme"]).toBeUndefined();
    stop();
  });

  it("follows a choice made in another tab", async () => {
    const stop = startTheme();
    renderWithClient(<ThemeChoice />);

    localStorage.setItem(THEME_KEY, "light");
    window.dispatchEvent(new StorageEvent("storage", { key: THEME_KEY, newValue: "light" }));
    expect(html.dataset["theme"]).toBe("light");
    expect(await screen.findByRole("radio", { name: "Light" })).toBeChecked();
    stop();
  });
});

describe("base.css's dark tokens", () => {
  it("are the same chosen outright as from the device under System", async () => {
    // From disk: with `css: false` Vitest hands over CSS imports, ?raw too, empty. (A module
    // name in a variable, as the app's types have no node:fs.)
    const fs = "node:fs";
    const { readFileSync } = (await import(/* @vite-ignore */ fs)) as {
      readFileSync: (path: string, encoding: "utf8") => string;
    };
    const here = decodeURI(import.meta.url.replace(/^file:\/\//, "").replace(/[^/]*$/, ""));
    const baseCss = readFileSync(`${here}../ui/base.css`, "utf8");
    const tokens = (selector: string) => {
      const start = baseCss.indexOf(`${selector} {`);
      expect(start).toBeGreaterThan(-1);
      const block = baseCss.slice(start, baseCss.indexOf("}", start));
      return [...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => `${name}: ${value}`);
    };
    const chosen = tokens(':root[data-theme="dark"]');
    expect(chosen.length).toBeGreaterThan(20);
    expect(tokens(":root:not([data-theme])")).toEqual(chosen);
  });
});
