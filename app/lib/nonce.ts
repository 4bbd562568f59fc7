/**
 * The Content-Security-Policy nonce of the current document (app/lib/security-headers.server.ts):
 * entry.server.tsx provides it, root.tsx puts it on Remix's inline scripts. In the browser it is
 * empty: the scripts already ran, and browsers hide a nonce from the DOM.
 */
import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
