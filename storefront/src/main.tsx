import "./lib/zod-csp";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App } from "./App";
import { SessionProvider } from "./lib/session";
import { shouldRetry } from "./lib/api";
import "./styles.css";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

const container = document.getElementById("root");
if (!container) throw new Error("Missing #root element");

// The first render is a transition: React yields to the browser every few milliseconds instead of
// holding the main thread for the whole page (a phone's first input is not blocked behind it).
const root = createRoot(container);
startTransition(() => root.render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionProvider>
          <App />
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
));
