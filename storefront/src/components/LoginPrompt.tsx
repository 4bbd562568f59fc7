/**
 * Shown when an action needs a session and there is none (SPEC §5: saving and following require
 * an authenticated user; SPEC §8 "User is not authenticated").
 */
import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import { Messages } from "~/contract";
import "../account.css";

export function LoginPrompt({ onClose, action = "save products and follow stores" }: { onClose(): void; action?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>("a, button")?.focus();
  }, []);
  return (
    <div
      ref={ref}
      className="login-prompt"
      role="alertdialog"
      aria-labelledby="login-prompt-text"
      data-testid="login-prompt"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onClose();
        }
      }}
      onClick={(e) => e.stopPropagation()}
    >
      <p id="login-prompt-text" className="login-prompt__text">
        <strong>{Messages.USER_NOT_AUTHENTICATED}.</strong> Sign in to {action}.
      </p>
      <div className="login-prompt__actions">
        <Link className="button button--small" to="/login">
          Sign in
        </Link>
        <button type="button" className="link-button" onClick={onClose}>
          Not now
        </button>
      </div>
    </div>
  );
}

/** A failure next to a control, with a way to dismiss it. */
export function InlineProblem({ message, onClose, testId }: { message: string; onClose(): void; testId?: string }) {
  return (
    <p className="inline-problem" role="alert" data-testid={testId} onClick={(e) => e.stopPropagation()}>
      <span>{message}</span>
      <button type="button" className="inline-problem__close" aria-label="Dismiss" onClick={onClose}>
        ×
      </button>
    </p>
  );
}
