/**
 * The return machine's rules (app/services/returns/return-rules.ts) against the contract's
 * transition table: every pair of statuses, with and without an undecided request.
 */
import { describe, expect, it } from "vitest";
import { RETURN_TRANSITIONS } from "../../app/contract/admin-returns";
import { RETURN_STATUSES } from "../../app/contract/account-orders";
import { allowedRequestMoves, allowedReturnStatuses, returnMoveRefusal, RETURN_RULE_MESSAGES } from "../../app/services/returns/return-rules";

describe("the return machine", () => {
  it("allows exactly the table's moves (REFUNDED never by the status call) once the request is approved", () => {
    for (const from of RETURN_STATUSES) {
      for (const to of RETURN_STATUSES) {
        const allowed = from === to || (RETURN_TRANSITIONS[from].includes(to) && to !== "REFUNDED");
        expect(returnMoveRefusal(from, to, "OPEN") === null, `${from} → ${to}`).toBe(allowed);
      }
      expect(allowedReturnStatuses(from, "OPEN")).toEqual(RETURN_TRANSITIONS[from].filter((s) => s !== "REFUNDED"));
    }
  });

  it("gives the reason of a refusal", () => {
    expect(returnMoveRefusal("DELIVERED", "REFUNDED", "OPEN")).toMatch(/refund/);
    expect(returnMoveRefusal("DELIVERED", "CANCELED", "OPEN")).toBe(RETURN_RULE_MESSAGES.RECEIVED);
    expect(returnMoveRefusal("REFUNDED", "CANCELED", "CLOSED")).toBe(RETURN_RULE_MESSAGES.REFUNDED);
    expect(returnMoveRefusal("CANCELED", "LABEL_SENT", "CLOSED")).toBe(RETURN_RULE_MESSAGES.CANCELED);
    expect(returnMoveRefusal("REQUESTED", "LABEL_SENT", "REQUESTED")).toBe(RETURN_RULE_MESSAGES.REQUEST_NOT_APPROVED);
    expect(returnMoveRefusal("REQUESTED", "DELIVERED", "OPEN")).toBe("A return that is requested cannot be moved to delivered");
    expect(allowedReturnStatuses("REQUESTED", "REQUESTED")).toEqual([]);
    // A return the store made without a request moves by the table alone.
    expect(allowedReturnStatuses("REQUESTED", null)).toEqual(["LABEL_SENT", "CANCELED"]);
  });

  it("lets an admin approve or decline only a requested request", () => {
    expect(allowedRequestMoves("REQUESTED")).toEqual(["OPEN", "DECLINED"]);
    for (const s of ["OPEN", "CLOSED", "DECLINED", "CANCELED"] as const) expect(allowedRequestMoves(s)).toEqual([]);
  });
});
