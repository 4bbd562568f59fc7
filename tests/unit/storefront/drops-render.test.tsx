/**
 * The upcoming drops page (/drops) server-rendered with a seeded query cache: the cards (date in
 * UTC, name, teaser, image, piece count), "Notify me" as guests see it (an email form) and as
 * signed-in shoppers see it (one button, or the done state when they asked already), the empty
 * and error states. Effects do not run; the API client fails if called.
 */
import { describe, expect, it } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import type { NotificationRequest, UpcomingDrop, User } from "~/contract";
import { ApiClientError } from "~/client";
import { Drops, MY_DROP_REQUESTS_KEY, UPCOMING_DROPS_KEY, formatDropWhen } from "../../../storefront/src/pages/Drops";
import { renderWithSession } from "../../helpers/storefront-render";
import { shopper } from "../../helpers/storefront-user";

const aurora: UpcomingDrop = {
  id: "d1",
  name: "Aurora",
  teaser: "Northern lights, in wool",
  image_url: "/uploads/aurora.jpg",
  scheduled_publish_date: "2026-12-12T18:30:00.000Z",
  product_count: 3,
};
const borealis: UpcomingDrop = { id: "d2", name: "Borealis", teaser: null, image_url: null, scheduled_publish_date: "2026-12-20T09:00:00.000Z", product_count: 1 };
const guest = shopper({ auth_provider: "guest", email: null });

function render(user: User | null, seed: (qc: QueryClient) => void) {
  return renderWithSession("/drops", <Drops />, seed, user);
}
const withDrops = (drops: UpcomingDrop[], mine?: NotificationRequest[]) => (qc: QueryClient) => {
  qc.setQueryData(UPCOMING_DROPS_KEY, { drops });
  if (mine) qc.setQueryData(MY_DROP_REQUESTS_KEY, { items: mine, nextCursor: null });
};
const cards = (html: string) => html.split('data-testid="upcoming-drop"').length - 1;

describe("upcoming drops (server render)", () => {
  it("shows each announced drop: date in UTC, name, teaser, image and piece count", () => {
    const html = render(guest, withDrops([aurora, borealis]));
    expect(html).toContain('<section class="page drops-page" aria-labelledby="drops-heading" data-testid="drops-page">');
    expect(html).toContain('<h1 id="drops-heading" class="page__title">Upcoming drops</h1>');
    expect(cards(html)).toBe(2);
    expect(formatDropWhen(aurora.scheduled_publish_date)).toBe("Sat, 12 Dec 2026, 18:30 UTC");
    expect(html).toContain('<time dateTime="2026-12-12T18:30:00.000Z">Sat, 12 Dec 2026, 18:30 UTC</time>');
    expect(html).toContain('<h2 id="drop-d1" class="drop-card__name">Aurora</h2>');
    expect(html).toContain('<p class="drop-card__teaser">Northern lights, in wool</p>');
    expect(html).toContain('src="/uploads/aurora.jpg"');
    expect(html).toContain('<p class="drop-card__count">3 pieces</p>');
    expect(html).toContain('<p class="drop-card__count">1 piece</p>');
    // Borealis has no teaser and no image.
    const second = html.slice(html.indexOf('id="drop-d2"'));
    expect(second).not.toContain("drop-card__teaser");
  });

  it("guests: an email form per drop with Notify me", () => {
    const html = render(guest, withDrops([aurora]));
    expect(html).toContain('data-testid="drop-notify-form"');
    expect(html).toContain('<label for="drop-email-d1" class="drop-card__label">Email me when it goes live</label>');
    expect(html).toMatch(/<input id="drop-email-d1" type="email" name="email" required="" autoComplete="email"/);
    expect(html).toContain('data-testid="drop-notify-button">Notify me</button>');
  });

  it("signed-in shoppers: one click, no email to type", () => {
    const html = render(shopper(), withDrops([aurora], []));
    expect(html).not.toContain("drop-notify-form");
    expect(html).not.toContain('type="email"');
    expect(html).toContain('<button type="button" class="button" data-testid="drop-notify-button">Notify me</button>');
  });

  it("signed-in shoppers who asked already see it, with a link to their notifications", () => {
    const request: NotificationRequest = {
      id: "n1",
      kind: "drop",
      status: "active",
      email: "ada@example.test",
      created_at: "2026-11-01T10:00:00.000Z",
      sent_at: null,
      product: null,
      variant: null,
      search: null,
      drop: { id: "d1", name: "Aurora", status: "scheduled", scheduled_publish_date: aurora.scheduled_publish_date },
    };
    const html = render(shopper(), withDrops([aurora, borealis], [request]));
    const first = html.slice(html.indexOf('id="drop-d1"'), html.indexOf('id="drop-d2"'));
    expect(first).toContain('<p class="drop-card__done" role="status" data-testid="drop-notify-done">We will email <!-- -->ada@example.test<!-- --> when it goes live.</p>');
    expect(first).toContain('href="/account/notifications"');
    const second = html.slice(html.indexOf('id="drop-d2"'));
    expect(second).toContain('data-testid="drop-notify-button">Notify me</button>');
  });

  it("the empty state, and the error with a Retry", () => {
    expect(render(guest, withDrops([]))).toContain(
      '<div class="state" data-testid="drops-empty"><h2 class="state__title">No drops announced yet</h2><p class="state__text">New collections are announced here before they go live. Come back soon.</p></div>',
    );
    const failed = render(guest, (qc) => {
      const query = qc.getQueryCache().build(qc, { queryKey: UPCOMING_DROPS_KEY });
      query.setState({ status: "error", error: new ApiClientError(503, "unavailable", "The server is down"), fetchStatus: "idle" });
    });
    expect(failed).toContain('<div class="state state--error" role="alert"><h2 class="state__title">The upcoming drops could not be loaded</h2><p class="state__text">The server is down</p>');
    expect(failed).toContain(">Retry</button>");
  });
});
