import type { KeyboardEvent } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
}

/**
 * The keyboard rules of a modal dialog (WAI-ARIA dialog pattern): Escape closes it, and Tab /
 * Shift+Tab cycle through its focusable elements without leaving it. For the dialog layer's onKeyDown.
 */
export function dialogKeyDown(e: KeyboardEvent<HTMLElement>, dialog: HTMLElement | null, close: () => void): void {
  if (e.key === "Escape") {
    // A dialog over another (the cart over the product modal) closes alone.
    e.stopPropagation();
    close();
    return;
  }
  if (e.key !== "Tab" || !dialog) return;
  const items = focusables(dialog);
  if (items.length === 0) {
    e.preventDefault();
    return;
  }
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (e.shiftKey && (active === first || !dialog.contains(active))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !dialog.contains(active))) {
    e.preventDefault();
    first.focus();
  }
}
