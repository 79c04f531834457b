/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

const backend = "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [
    react(),
    // The service worker (src/sw/sw.ts -> dist/sw.js) with the built files' precache list
    // injected, and the web app manifest (dist/manifest.webmanifest, linked from index.html).
    // The page registers the worker itself (src/pwa/serviceWorker.ts).
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src/sw",
      filename: "sw.ts",
      injectRegister: false,
      manifestFilename: "manifest.webmanifest",
      includeAssets: [],
      injectManifest: {
        rollupFormat: "iife",
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
      },
      manifest: {
        id: "/",
        name: "Todo Chatbot",
        short_name: "Todos",
        description: "Manage your todo list by chatting with an assistant.",
        start_url: "/",
        scope: "/",
        display: "standalone",
        // The light theme's page colour (ui/base.css); index.html's theme-color metas follow
        // the light and dark themes.
        theme_color: "#f7f7fb",
        background_color: "#f7f7fb",
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
    }),
  ],
  // The backend serves dist/index.html at / and dist/assets/* at /assets/*.
  base: "/",
  build: {
    outDir: "dist",
    assetsDir: "assets",
    emptyOutDir: true,
  },
  server: {
    proxy: {
      "/api": { target: backend, changeOrigin: true },
      "/healthz": backend,
      "/readyz": backend,
    },
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    // The "browser's" zone in every test, so a test can put the account somewhere else.
    env: { TZ: "UTC" },
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    // Time limits guard against hangs, not slowness: CI shares two cores with other work,
    // and a 250-message render that takes 1 s idle took over 5 s (the default) under load.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
