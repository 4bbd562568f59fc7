/**
 * Upcoming drops (`/drops`): the announced drops (`dropsUpcoming`: scheduled, date ahead) with their
 * name, date, teaser and image, each with "Notify me" before it goes live — one click for signed-in
 * shoppers (`notificationRequestsDropCreate`, listed in their notification settings), an email
 * address for guests (`dropsNotifyMe`). Both are emailed by the drop job when the drop goes live.
 */
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { UpcomingDrop } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { NOTIFICATIONS_KEY, NOTIFICATIONS_PATH } from "../lib/orders";
import { useStaticPageMeta } from "../lib/use-page-meta";
import { ListStates } from "../components/ListStates";
import "../drops.css";

export const UPCOMING_DROPS_KEY = ["drops", "upcoming"] as const;
/** The signed-in shopper's drop requests (a "user" key: dropped on sign-in and sign-out). */
export const MY_DROP_REQUESTS_KEY = [...NOTIFICATIONS_KEY, "drop"] as const;

/** "Sat, 12 Dec 2026, 18:30 UTC": the same on the server and in every browser. */
export function formatDropWhen(iso: string): string {
  return `${new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(new Date(iso))} UTC`;
}

function Done({ email }: { email: string | null }) {
  return (
    <p className="drop-card__done" role="status" data-testid="drop-notify-done">
      We will email {email ?? "you"} when it goes live.
    </p>
  );
}

function NotifyMe({ drop, requested }: { drop: UpcomingDrop; requested: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { user, signedIn } = useSession();
  const [email, setEmail] = useState("");
  const oneClick = useMutation({
    mutationFn: () => api.notificationRequestsDropCreate({ body: { drop_id: drop.id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
  const byEmail = useMutation({ mutationFn: (address: string) => api.dropsNotifyMe({ params: { id: drop.id }, body: { email: address } }) });

  if (signedIn) {
    if (requested || oneClick.isSuccess) {
      return (
        <div className="drop-card__notify">
          <Done email={user?.email ?? null} />
          <Link to={NOTIFICATIONS_PATH} className="drop-card__manage">
            Manage notifications
          </Link>
        </div>
      );
    }
    return (
      <div className="drop-card__notify">
        <button type="button" className="button" disabled={oneClick.isPending} onClick={() => oneClick.mutate()} data-testid="drop-notify-button">
          {oneClick.isPending ? "Saving…" : "Notify me"}
        </button>
        {oneClick.isError && (
          <p className="form-error" role="alert" data-testid="drop-notify-error">
            {errorMessage(oneClick.error, "Could not save this reminder. Please try again.")}
          </p>
        )}
      </div>
    );
  }

  if (byEmail.isSuccess) return <Done email={byEmail.data.email} />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (email.trim()) byEmail.mutate(email.trim());
  };
  const inputId = `drop-email-${drop.id}`;
  return (
    <form className="drop-card__notify drop-card__form" onSubmit={submit} data-testid="drop-notify-form">
      <label htmlFor={inputId} className="drop-card__label">
        Email me when it goes live
      </label>
      <div className="drop-card__row">
        <input id={inputId} type="email" name="email" required autoComplete="email" placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        <button type="submit" className="button" disabled={byEmail.isPending} data-testid="drop-notify-button">
          {byEmail.isPending ? "Saving…" : "Notify me"}
        </button>
      </div>
      {byEmail.isError && (
        <p className="form-error" role="alert" data-testid="drop-notify-error">
          {errorMessage(byEmail.error, "Could not save this reminder. Please try again.")}
        </p>
      )}
    </form>
  );
}

export function DropCard({ drop, requested }: { drop: UpcomingDrop; requested: boolean }) {
  const headingId = `drop-${drop.id}`;
  return (
    <li className="drop-card" data-testid="upcoming-drop" aria-labelledby={headingId}>
      {drop.image_url ? <img className="drop-card__image" src={drop.image_url} alt="" width={480} height={320} loading="lazy" decoding="async" /> : null}
      <div className="drop-card__body">
        <p className="drop-card__when">
          <time dateTime={drop.scheduled_publish_date}>{formatDropWhen(drop.scheduled_publish_date)}</time>
        </p>
        <h2 id={headingId} className="drop-card__name">
          {drop.name}
        </h2>
        {drop.teaser ? <p className="drop-card__teaser">{drop.teaser}</p> : null}
        {drop.product_count > 0 ? (
          <p className="drop-card__count">{`${drop.product_count} piece${drop.product_count === 1 ? "" : "s"}`}</p>
        ) : null}
        <NotifyMe drop={drop} requested={requested} />
      </div>
    </li>
  );
}

export function Drops() {
  const api = useApi();
  const { user, signedIn } = useSession();
  useStaticPageMeta();
  const list = useQuery({ queryKey: UPCOMING_DROPS_KEY, queryFn: () => api.dropsUpcoming(), staleTime: 60_000 });
  const mine = useQuery({
    queryKey: MY_DROP_REQUESTS_KEY,
    queryFn: () => api.notificationRequestsMine({ query: { kind: "drop", limit: 100 } }),
    enabled: !!user && signedIn,
    staleTime: 60_000,
  });
  const requested = new Set((mine.data?.items ?? []).filter((r) => r.status === "active" && r.drop).map((r) => r.drop!.id));
  const drops = list.data?.drops ?? [];

  return (
    <section className="page drops-page" aria-labelledby="drops-heading" data-testid="drops-page">
      <div className="page__head">
        <h1 id="drops-heading" className="page__title">
          Upcoming drops
        </h1>
      </div>
      <ListStates
        list={list}
        count={drops.length}
        loadingLabel="Loading the upcoming drops…"
        errorTitle="The upcoming drops could not be loaded"
        empty={
          <div className="state" data-testid="drops-empty">
            <h2 className="state__title">No drops announced yet</h2>
            <p className="state__text">New collections are announced here before they go live. Come back soon.</p>
          </div>
        }
      >
        <ul className="drop-list" data-testid="drop-list">
          {drops.map((d) => (
            <DropCard key={d.id} drop={d} requested={requested.has(d.id)} />
          ))}
        </ul>
      </ListStates>
    </section>
  );
}
