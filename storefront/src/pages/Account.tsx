/**
 * Account (`/account`): profile (first and last name, phone), style and interests (the gender
 * preference they carry feeds the gender rules of SPEC §4 and the for-you feed), password, sign
 * out, and deleting the account after a confirmation. Guests can set their profile and interests;
 * the password and sign-out need a signed-in account.
 */
import { useMemo, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "react-router-dom";
import { INTERESTS_MAX, INTEREST_MAX_LENGTH, type StylePreferences, type User } from "~/contract";
import { parseInterests, tasteInterests, type InterestGender } from "~/lib/interests";
import { errorMessage, useApi } from "../lib/api";
import { GENDER_LABELS, useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { SESSION_QUERY_KEY, useSession } from "../lib/session";
import { SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { TextField } from "../components/Field";
import { Spinner } from "../components/FeedStatus";
import { VerifyEmailNotice } from "../components/VerifyEmailNotice";
import { MyProductRequests } from "../components/MyProductRequests";
import "../account.css";

export const STYLE_PREFERENCES_KEY = ["user", "style-preferences"] as const;

/** The end of an account form: its error, the confirmation once saved, and the submit button. */
function FormEnd({
  error,
  saved,
  busy,
  label,
  busyLabel,
  disabled = false,
  testId,
}: {
  error: string | null;
  /** The confirmation to show, or null. */
  saved: string | null;
  busy: boolean;
  label: string;
  busyLabel: string;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <>
      {error !== null && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {saved !== null && (
        <p className="form-ok" role="status">
          {saved}
        </p>
      )}
      <button type="submit" className="button" disabled={busy || disabled} data-testid={testId}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}

function ProfileSection({ user }: { user: User }) {
  const api = useApi();
  const qc = useQueryClient();
  const [first, setFirst] = useState(user.first_name ?? "");
  const [last, setLast] = useState(user.last_name ?? "");
  const [phone, setPhone] = useState(user.phone_number ?? "");
  const save = useMutation({
    mutationFn: () => api.updateMe({ body: { first_name: first.trim() || null, last_name: last.trim() || null, phone_number: phone.trim() || null } }),
    onSuccess: (u) => qc.setQueryData(SESSION_QUERY_KEY, u),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="profile-title" data-testid="profile-form" onChange={() => save.isSuccess && save.reset()}>
      <h2 id="profile-title" className="panel__title">
        Profile
      </h2>
      {user.email && <p className="panel__text">Email: {user.email}</p>}
      <div className="panel__row">
        <TextField label="First name" name="first_name" autoComplete="given-name" maxLength={100} value={first} onChange={(e) => setFirst(e.target.value)} />
        <TextField label="Last name" name="last_name" autoComplete="family-name" maxLength={100} value={last} onChange={(e) => setLast(e.target.value)} />
      </div>
      <TextField label="Phone" name="phone" type="tel" autoComplete="tel" maxLength={30} value={phone} onChange={(e) => setPhone(e.target.value)} />
      <FormEnd
        error={save.isError ? errorMessage(save.error, "Could not save your profile. Please try again.") : null}
        saved={save.isSuccess ? "Profile saved" : null}
        busy={save.isPending}
        label="Save profile"
        busyLabel="Saving…"
      />
    </form>
  );
}

const GENDERS: InterestGender[] = ["womenswear", "menswear", "both"];

function InterestsSection() {
  const api = useApi();
  const qc = useQueryClient();
  const { setGender } = useGender();
  const prefs = useQuery({ queryKey: STYLE_PREFERENCES_KEY, queryFn: () => api.usersStylePreferences() });

  if (prefs.isPending) return <Spinner label="Loading your interests…" />;
  if (prefs.isError) {
    return (
      <div className="panel">
        <p className="form-error" role="alert">
          {errorMessage(prefs.error, "Your interests could not be loaded.")}{" "}
          <button type="button" className="link-button" onClick={() => void prefs.refetch()}>
            Retry
          </button>
        </p>
      </div>
    );
  }
  return (
    <InterestsForm
      prefs={prefs.data}
      onSaved={(next) => {
        qc.setQueryData(STYLE_PREFERENCES_KEY, next);
        // The session's user carries metadata.interests: the gender rules read it from there.
        void qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
        // This tab follows the new preference at once (it outranks the interests, SPEC §4).
        setGender(next.gender);
      }}
      save={(body) => api.usersStylePreferencesUpdate({ body })}
    />
  );
}

function InterestsForm({
  prefs,
  onSaved,
  save,
}: {
  prefs: StylePreferences;
  onSaved(next: StylePreferences): void;
  save(body: { interests: string[]; gender: InterestGender }): Promise<StylePreferences>;
}) {
  const [gender, setGenderChoice] = useState<InterestGender>(prefs.gender);
  const [chosen, setChosen] = useState<string[]>(() => tasteInterests(prefs.interestList));
  const [custom, setCustom] = useState("");
  const offered = useMemo(() => [...new Set([...prefs.suggestions, ...chosen])], [prefs.suggestions, chosen]);
  const mutation = useMutation({ mutationFn: () => save({ interests: chosen, gender }), onSuccess: onSaved });

  const toggle = (t: string) => {
    mutation.reset();
    setChosen((c) => (c.includes(t) ? c.filter((x) => x !== t) : [...c, t]));
  };
  const addCustom = () => {
    const added = parseInterests(custom).filter((t) => t.length <= INTEREST_MAX_LENGTH);
    if (added.length === 0) return;
    mutation.reset();
    setChosen((c) => [...new Set([...c, ...added])]);
    setCustom("");
  };
  const tooMany = chosen.length + (gender === "both" ? 0 : 1) > INTERESTS_MAX;

  return (
    <form
      className="panel"
      aria-labelledby="interests-title"
      data-testid="interests-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!tooMany) mutation.mutate();
      }}
    >
      <h2 id="interests-title" className="panel__title">
        Style and interests
      </h2>
      <p className="panel__text">They shape your feed and your recommendations.</p>
      <fieldset className="choice">
        <legend className="field__label">I shop</legend>
        <div className="choice__options">
          {GENDERS.map((g) => (
            <label key={g} className="choice__option">
              <input
                type="radio"
                name="gender"
                value={g}
                checked={gender === g}
                onChange={() => {
                  mutation.reset();
                  setGenderChoice(g);
                }}
              />
              <span>{g === "both" ? "Both" : GENDER_LABELS[g]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="choice">
        <legend className="field__label">Interests</legend>
        <div className="chips" data-testid="interest-chips">
          {offered.map((t) => (
            <button key={t} type="button" className="chip" aria-pressed={chosen.includes(t)} onClick={() => toggle(t)} data-testid="interest-chip">
              {t}
            </button>
          ))}
          {offered.length === 0 && <p className="panel__text">Add your own below.</p>}
        </div>
      </fieldset>
      <div className="inline-add">
        <label className="visually-hidden" htmlFor="interest-custom">
          Add an interest
        </label>
        <input
          id="interest-custom"
          className="field__input field__input--small"
          placeholder="Add an interest, e.g. linen"
          maxLength={200}
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              addCustom();
            }
          }}
          data-testid="interest-custom"
        />
        <button type="button" className="button button--ghost button--small" onClick={addCustom} disabled={!custom.trim()}>
          Add
        </button>
      </div>
      {tooMany && (
        <p className="form-error" role="alert">
          Choose at most {INTERESTS_MAX} interests.
        </p>
      )}
      <FormEnd
        error={mutation.isError ? errorMessage(mutation.error, "Could not save your interests. Please try again.") : null}
        saved={mutation.isSuccess ? "Interests saved" : null}
        busy={mutation.isPending}
        disabled={tooMany}
        label="Save interests"
        busyLabel="Saving…"
        testId="interests-save"
      />
    </form>
  );
}

function PasswordSection() {
  const api = useApi();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: () => api.changePassword({ body: { old_password: current, new_password: next } }),
    onSuccess: () => {
      setCurrent("");
      setNext("");
      setRepeat("");
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    change.reset();
    if (next.length < 8) return setLocalError("The new password must be at least 8 characters.");
    if (next !== repeat) return setLocalError("The new passwords do not match.");
    setLocalError(null);
    change.mutate();
  };
  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="password-title" data-testid="password-form">
      <h2 id="password-title" className="panel__title">
        Password
      </h2>
      <TextField label="Current password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
      <div className="panel__row">
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <TextField label="Repeat the new password" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
      </div>
      <FormEnd
        error={localError || (change.isError ? errorMessage(change.error, "Could not change your password. Please try again.") : null)}
        saved={change.isSuccess ? "Password changed" : null}
        busy={change.isPending}
        label="Change password"
        busyLabel="Changing…"
      />
    </form>
  );
}

function SessionSection({ signedIn }: { signedIn: boolean }) {
  const api = useApi();
  const navigate = useNavigate();
  const { signOut, signingOut } = useSession();
  const { gender } = useGender();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const del = useMutation({
    mutationFn: async () => {
      await api.deleteMe();
      // The account is gone: start over as a new guest (as after signing out).
      await signOut().catch(() => undefined);
    },
    onSuccess: () => navigate(homePathFor(gender), { replace: true }),
  });
  return (
    <section className="panel" aria-labelledby="session-title">
      <h2 id="session-title" className="panel__title">
        {signedIn ? "Sign out and delete" : "Your guest data"}
      </h2>
      {signedIn && (
        <>
          <button
            type="button"
            className="button button--ghost"
            disabled={signingOut}
            onClick={async () => {
              setError(null);
              try {
                await signOut();
                navigate(homePathFor(gender));
              } catch (e) {
                setError(errorMessage(e, "Could not sign out. Please try again."));
              }
            }}
            data-testid="account-signout"
          >
            {signingOut ? "Signing out…" : "Sign out"}
          </button>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </>
      )}
      <div className="danger">
        <p className="panel__text">
          {signedIn
            ? "Deleting your account removes your profile, saved products, follows, collections and try-ons. Orders and reviews stay on record without your name."
            : "Deleting removes what you saved, followed and collected as a guest in this browser."}
        </p>
        <button type="button" className="button button--danger" onClick={() => setConfirming(true)} data-testid="account-delete">
          {signedIn ? "Delete account" : "Delete my guest data"}
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={signedIn ? "Delete your account?" : "Delete your guest data?"}
          confirmLabel={signedIn ? "Delete my account" : "Delete my data"}
          busyLabel="Deleting…"
          busy={del.isPending}
          error={del.isError ? errorMessage(del.error, "Could not delete. Please try again.") : null}
          onConfirm={() => del.mutate()}
          onCancel={() => {
            del.reset();
            setConfirming(false);
          }}
          testId="account-delete-dialog"
        >
          <p>This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

export function Account() {
  const { user, signedIn } = useSession();

  return (
    <AccountPage headingId="account-heading" title="Account" testId="account-page">
      <SessionGate>
        {user && (
          <div className="account-grid">
            {!signedIn && (
              <p className="guest-note" data-testid="guest-note">
                You are browsing as a guest. <Link to="/login">Sign in</Link> to use your account on every device and to set a password.
              </p>
            )}
            <VerifyEmailNotice user={user} what="Orders you place with it appear in your account" />
            <ProfileSection key={user.id} user={user} />
            <InterestsSection />
            <MyProductRequests />
            {signedIn && <PasswordSection />}
            <SessionSection signedIn={signedIn} />
          </div>
        )}
      </SessionGate>
    </AccountPage>
  );
}
