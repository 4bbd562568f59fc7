/**
 * The state of an optimistic on/off control (SPEC §4: saving a product and following a store
 * toggle optimistically and roll back on error). Pure, so it is tested without React.
 *
 * - `value` is what the shopper sees; `confirmed` is the last state the server answered.
 * - A click flips `value` at once and counts a request in flight. Each request carries the state
 *   it wants (not "toggle"), so requests can overlap: the last answer wins.
 * - When the last request in flight succeeds, `value` takes the server's answer; when it fails,
 *   `value` rolls back to `confirmed`. While other requests are still in flight, `value` keeps the
 *   shopper's latest choice.
 * - A state loaded from the server (the check call) is ignored while requests are in flight.
 */
export interface ToggleState {
  value: boolean;
  confirmed: boolean;
  pending: number;
}

export type ToggleAction = { type: "toggle" } | { type: "succeeded"; value: boolean } | { type: "failed" } | { type: "loaded"; value: boolean };

export const initialToggle = (value: boolean): ToggleState => ({ value, confirmed: value, pending: 0 });

export function toggleReducer(state: ToggleState, action: ToggleAction): ToggleState {
  switch (action.type) {
    case "toggle":
      return { ...state, value: !state.value, pending: state.pending + 1 };
    case "succeeded": {
      const pending = Math.max(0, state.pending - 1);
      return { value: pending === 0 ? action.value : state.value, confirmed: action.value, pending };
    }
    case "failed": {
      const pending = Math.max(0, state.pending - 1);
      return { ...state, value: pending === 0 ? state.confirmed : state.value, pending };
    }
    case "loaded":
      return state.pending > 0 ? state : initialToggle(action.value);
  }
}
