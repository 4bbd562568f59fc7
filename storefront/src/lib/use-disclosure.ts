/**
 * A WAI-ARIA disclosure (a button that shows and hides a panel), for the header's menus: the
 * panel closes when the route changes away from the page it was opened on (following one of its links), on a pointer press outside
 * the root element, and on Escape, which also puts the focus back on the button so a keyboard
 * user is not left on a hidden element.
 */
import { useCallback, useEffect, useId, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { useLocation } from "react-router-dom";

export interface Disclosure {
  open: boolean;
  setOpen: Dispatch<SetStateAction<boolean>>;
  /** The panel's id, for the button's aria-controls. */
  panelId: string;
  /** The element holding the button and the panel: a press outside it closes the panel. */
  rootRef: RefObject<HTMLDivElement>;
  /** The toggle button: Escape puts the focus back on it. */
  buttonRef: RefObject<HTMLButtonElement>;
  /** The toggle button's onClick. */
  toggle: () => void;
}

export function useDisclosure(): Disclosure {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // The page address the panel was opened on. The panel closes when the route changes away from it,
  // not on every route commit: a navigation rendered in a transition commits its new location later
  // than the address bar changes (the next page's code loads first), and a panel opened meanwhile
  // (right after signing in, say) was closed by that late commit although the shopper had not moved.
  const openedOn = useRef<string | null>(null);
  useEffect(() => {
    openedOn.current = open ? window.location.pathname : null;
  }, [open]);
  useEffect(() => {
    if (openedOn.current !== null && location.pathname !== openedOn.current) setOpen(false);
  }, [location.pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const toggle = useCallback(() => setOpen((v) => !v), []);

  return {
    open,
    setOpen,
    panelId,
    rootRef,
    buttonRef,
    toggle,
  };
}
