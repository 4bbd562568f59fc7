/**
 * What a new password must be besides the contract's length rule (registration, change of
 * password, anything that sets one): not among the passwords attackers try first, and not the
 * account's own email. zxcvbn-ts estimates guesses against its list of common passwords,
 * keyboard walks, sequences, dates and l33t variants; a score below 2 (under about a million
 * guesses) falls to an online attack that the rate limits only slow down.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as zxcvbnCommon from "@zxcvbn-ts/language-common";
import { invalid } from "~/lib/domain-errors";

export const PASSWORD_TOO_COMMON = "This password is too common or too easy to guess: use a longer one, e.g. three or four unrelated words";
export const PASSWORD_CONTAINS_EMAIL = "The password must not contain your email address or its name part";

const MIN_SCORE = 2;
/** Name parts shorter than this are too likely to occur by chance in a good password. */
const MIN_LOCAL_PART = 3;

let estimator: ZxcvbnFactory | undefined;
function zxcvbn(): ZxcvbnFactory {
  // Built on first use: loading the dictionaries takes tens of milliseconds.
  estimator ??= new ZxcvbnFactory({ dictionary: { ...zxcvbnCommon.dictionary }, graphs: zxcvbnCommon.adjacencyGraphs });
  return estimator;
}

/** Throws `invalid` (400) with a message for the user when the password may not be used. */
export function assertAcceptablePassword(password: string, account: { email?: string | null }): void {
  const email = account.email?.trim().toLowerCase();
  const lowered = password.toLowerCase();
  if (email) {
    const local = email.split("@")[0] ?? "";
    if (lowered.includes(email) || lowered === local || (local.length >= MIN_LOCAL_PART && lowered.includes(local))) {
      throw invalid(PASSWORD_CONTAINS_EMAIL);
    }
  }
  const userInputs = email ? [email, ...email.split(/[@.+_-]/).filter((p) => p.length >= MIN_LOCAL_PART)] : [];
  if (zxcvbn().check(password, userInputs).score < MIN_SCORE) throw invalid(PASSWORD_TOO_COMMON);
}
