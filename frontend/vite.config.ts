/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const backend = "http://127.0.0.1:8000";

export default defineConfig({
  plugins: [react()],
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
