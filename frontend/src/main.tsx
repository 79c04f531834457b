// First, so every feature's stylesheet comes after the tokens and base rules.
import "./ui/base.css";

import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { createQueryClient } from "./api/queryClient";
import { App } from "./App";
import { startServiceWorker } from "./pwa/serviceWorker";
import { startTheme } from "./settings/theme";

// Before the first render: a chosen theme is on <html> before #root draws anything. (An inline
// script in index.html would run earlier still, but the page's CSP allows none.)
startTheme();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

const queryClient = createQueryClient();
// The app shell is cached for use offline; a notification's Done or Snooze refreshes what is shown.
startServiceWorker(() => void queryClient.invalidateQueries());

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
