/**
 * The GraphQL endpoints' check for text PostgreSQL cannot store (./unstorable-text.ts): in the
 * variables and in the document's string literals (`"a\u0000"` is a NUL once parsed), so a
 * resolver never passes one to a query.
 */
import { BREAK, visit, type DocumentNode } from "graphql";
import { findUnstorableText, isUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "./unstorable-text";

/** The message refusing the request, or null when its text can be stored. */
export function unstorableGraphQLInput(document: DocumentNode, variables: unknown): string | null {
  const inVariables = findUnstorableText(variables ?? {});
  if (inVariables !== null) return `variables${inVariables ? `.${inVariables}` : ""} ${UNSTORABLE_TEXT_MESSAGE}`;
  let found = false;
  visit(document, {
    StringValue(node) {
      if (!isUnstorableText(node.value)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found ? `A string of the query ${UNSTORABLE_TEXT_MESSAGE}` : null;
}
