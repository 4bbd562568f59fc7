/**
 * The assistant's citations server-rendered: each cited guide's title (the citation), the quoted
 * passage and the source, closed until opened (the whole guide loads only then); no citations
 * render nothing. Effects do not run; the API client fails if called.
 */
import { describe, expect, it } from "vitest";
import { AssistantCitations } from "../../../storefront/src/components/AssistantCitations";
import { renderWithSession } from "../../helpers/storefront-render";

const citations = [
  { id: "k1", title: "Caring for linen", source: "Fashion Discovery care guide", excerpt: "Wash linen at 30–40 °C on a gentle cycle with a mild detergent." },
  { id: "k2", title: "What is linen?", source: null, excerpt: "Linen is woven from the fibres of the flax plant." },
];

describe("assistant citations (server render)", () => {
  it("lists the cited guides with their passages and sources", () => {
    const html = renderWithSession("/assistant", <AssistantCitations citations={citations} />);
    expect(html).toContain('aria-label="Sources"');
    expect(html.split('data-testid="assistant-citation"').length - 1).toBe(2);
    expect(html).toContain('<summary class="assistant__citation-title">Caring for linen</summary>');
    expect(html).toContain("Wash linen at 30–40 °C on a gentle cycle with a mild detergent.");
    expect(html).toContain("Fashion Discovery care guide");
    expect(html).toContain('<summary class="assistant__citation-title">What is linen?</summary>');
    // Closed, and the full guide is not loaded before it is opened.
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(html).not.toContain("assistant-citation-full");
  });

  it("renders nothing without citations", () => {
    expect(renderWithSession("/assistant", <AssistantCitations citations={[]} />)).toBe("");
  });
});
