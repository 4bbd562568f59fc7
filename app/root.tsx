import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { useNonce } from "./lib/nonce";

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <Document>
      <Outlet />
    </Document>
  );
}

/**
 * The last resort page. It says what happened in words and never shows an error's message or
 * stack: those can hold file paths and internals, and the server has logged them
 * (entry.server.tsx handleError). Remix's default boundary would print the stack.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 404 ? "Page not found" : status === 403 ? "No access" : status < 500 ? "This request could not be handled" : "Something went wrong";
  return (
    <Document>
      <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: "40rem", margin: "4rem auto", padding: "0 1rem" }}>
        <h1>{title}</h1>
        <p>{status >= 500 ? "Please try again in a moment." : `The server answered ${status}.`}</p>
        <p>
          <a href="/app">Back to the admin</a>
        </p>
      </main>
    </Document>
  );
}
