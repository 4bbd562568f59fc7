/**
 * Follow / Following for a store (SPEC §4: the favourite is deleted when it exists, else
 * created). Optimistic with rollback; SPEC §8's favourite-store messages on failure.
 */
import { useCallback } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { Store } from "~/contract";
import { useFollowedStore } from "../lib/saved";
import { InlineProblem, LoginPrompt } from "./LoginPrompt";
import "../account.css";

export function FollowButton({ store, small = false }: { store: Pick<Store, "id" | "name">; small?: boolean }) {
  const qc = useQueryClient();
  // Keep the store page's follower count in step with the server's answer.
  const onFollowerCount = useCallback(
    (count: number) => qc.setQueryData<Store>(["store", store.id], (s) => (s ? { ...s, followerCount: count } : s)),
    [qc, store.id]
  );
  const t = useFollowedStore(store.id, onFollowerCount);
  return (
    <div className="follow">
      <button
        type="button"
        className={`button ${t.on ? "button--ghost" : ""}${small ? " button--small" : ""} follow__button`}
        aria-pressed={t.on}
        aria-label={`${t.on ? "Following" : "Follow"} ${store.name}`}
        data-testid="follow-button"
        data-following={t.on ? "true" : "false"}
        data-pending={t.pending ? "true" : undefined}
        data-known={t.known ? "true" : "false"}
        onClick={() => void t.toggle()}
      >
        {t.on ? "Following" : "Follow"}
      </button>
      {t.problem?.kind === "login" && <LoginPrompt onClose={t.dismiss} />}
      {t.problem?.kind === "error" && <InlineProblem message={t.problem.message} onClose={t.dismiss} testId="follow-error" />}
    </div>
  );
}
