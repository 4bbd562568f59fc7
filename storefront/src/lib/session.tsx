/**
 * The shopper's session in React. Resolution logic lives in session-core.ts (pure, tested); this
 * file wires it to TanStack Query and the API client.
 *
 * Queries whose data belongs to the user use keys starting with "user"; they are dropped when the
 * user signs in or out.
 */
import { createContext, useCallback, useContext, useMemo, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { User } from "~/contract";
import { useApi } from "./api";
import { safeLocalStorage } from "./browser";
import { createResolutionGate, createUserIdStore, isSignedIn, resolveSession, type UserIdStore } from "./session-core";

export * from "./session-core";

export const SESSION_QUERY_KEY = ["session"] as const;
export const USER_QUERY_PREFIX = "user";

export interface SessionValue {
  /** The current user (a guest until they sign in), or null while loading or after an error. */
  user: User | null;
  status: "loading" | "ready" | "error";
  error: unknown;
  signedIn: boolean;
  signIn(email: string, password: string): Promise<User>;
  /** Creates an account with a password; a guest's data stays with it (the guest becomes the account). */
  signUp(input: SignUpInput): Promise<User>;
  signingUp: boolean;
  signOut(): Promise<void>;
  signingIn: boolean;
  signingOut: boolean;
  /** Resolves the session again (after an error). */
  refresh(): void;
}

export interface SignUpInput {
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
}

const SessionContext = createContext<SessionValue | null>(null);

function browserUserIdStore(): UserIdStore {
  const secure = typeof location !== "undefined" && location.protocol === "https:";
  return createUserIdStore(safeLocalStorage(), typeof document !== "undefined" ? document : null, secure);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const store = useMemo(browserUserIdStore, []);
  const resolution = useMemo(createResolutionGate, []);

  const dropUserQueries = useCallback(() => {
    queryClient.removeQueries({ queryKey: [USER_QUERY_PREFIX] });
  }, [queryClient]);

  const session = useQuery<User | null>({
    queryKey: SESSION_QUERY_KEY,
    queryFn: async () => {
      const { user } = await resolution.track(
        resolveSession(api, store, globalThis, {
          onSignedOut: () => {
            queryClient.setQueryData(SESSION_QUERY_KEY, null);
            dropUserQueries();
          },
        }),
      );
      return user;
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const login = useMutation({
    mutationFn: async (body: { email: string; password: string }) => {
      await resolution.settled();
      return api.login({ body });
    },
    onSuccess: ({ user }) => {
      store.set(user.id);
      dropUserQueries();
      queryClient.setQueryData(SESSION_QUERY_KEY, user);
    },
  });

  const register = useMutation({
    mutationFn: async (body: SignUpInput) => {
      await resolution.settled();
      return api.register({ body });
    },
    onSuccess: ({ user }) => {
      store.set(user.id);
      dropUserQueries();
      queryClient.setQueryData(SESSION_QUERY_KEY, user);
    },
  });

  const logout = useMutation({
    mutationFn: async () => {
      await api.logout();
      store.clear();
      dropUserQueries();
      queryClient.setQueryData(SESSION_QUERY_KEY, null);
      // A signed-out visitor browses as a new guest (DESIGN: a guest is created on first visit).
      const { user } = await api.createGuest();
      store.set(user.id);
      return user;
    },
    onSuccess: (user) => queryClient.setQueryData(SESSION_QUERY_KEY, user),
  });

  const value = useMemo<SessionValue>(() => {
    const user = session.data ?? null;
    return {
      user,
      status: session.isError ? "error" : user ? "ready" : "loading",
      error: session.error,
      signedIn: isSignedIn(user),
      signIn: async (email, password) => (await login.mutateAsync({ email, password })).user,
      signUp: async (input) => (await register.mutateAsync(input)).user,
      signingUp: register.isPending,
      signOut: async () => {
        await logout.mutateAsync();
      },
      signingIn: login.isPending,
      signingOut: logout.isPending,
      refresh: () => void session.refetch(),
    };
  }, [session.data, session.isError, session.error, session.refetch, login.mutateAsync, login.isPending, register.mutateAsync, register.isPending, logout.mutateAsync, logout.isPending]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error("useSession must be used inside <SessionProvider>");
  return v;
}
