// ESLint (flat config): TypeScript's recommended rules and the Rules of React, including the
// React Compiler-era checks (refs read or written during render, setState in effects, ...).
// `npm run lint` allows no warnings, so exhaustive-deps (a warning here) fails it too.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig([
  { ignores: ["dist", "node_modules", "src/api/schema.d.ts"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended],
  },
]);
