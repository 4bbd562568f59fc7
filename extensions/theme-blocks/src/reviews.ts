/**
 * Product reviews block (blocks/product-reviews.liquid, assets/fd-reviews.js): the rating summary
 * with its distribution, the approved reviews (newest first, "Show more" pages) and the
 * write-a-review form — rating, title, text and up to five photos, each compressed in the browser
 * like the storefront's (storefront/src/lib/photo-compress.ts: 1024 px, EXIF kept) and uploaded
 * with `POST /product-reviews/images`, then `POST /product-reviews` with their URLs. New reviews
 * wait for moderation, so the form thanks the shopper instead of listing the review.
 * Writing needs a session: a visitor who is not logged in gets a guest (lib/session.ts).
 */
import { reviewsByProduct, reviewsCreate, reviewsProductSummary, reviewsUploadImage } from "virtual:fd-api-routes";
import type { PublicReview, RatingSummary } from "~/contract/reviews";
import { preparePhoto } from "../../../storefront/src/lib/photo-compress";
import { safeImageUrl } from "./feed-model";
import { photoProblem } from "./lib/photo-check";
import { ApiClientError, blockClient } from "./lib/api";
import { boolSetting, intSetting, readCommonSettings } from "./lib/block-settings";
import { el, interpolate, mountAll, pageLocale, statusLine, textOf } from "./lib/dom";
import { getSession, withSession } from "./lib/session";
import { countText, formatRating, renderStars } from "./lib/stars";

const ROOT_SELECTOR = ".fd-reviews";
/** The API's limit of photos per review. */
export const MAX_REVIEW_PHOTOS = 5;
const mounted = new WeakSet<HTMLElement>();

/** The form's input, checked before anything is sent (the server checks again). */
export function reviewFormProblem(input: { rating: number; body: string }): "rating" | "text" | null {
  if (!Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5) return "rating";
  if (!input.body.trim()) return "text";
  return null;
}

function mount(root: HTMLElement): void {
  if (mounted.has(root)) return;
  mounted.add(root);
  const data = { ...root.dataset };
  const settings = readCommonSettings(data, window.location.origin);
  const productId = settings.productId;
  if (!productId) return;
  const take = intSetting(data.perPage, 5, 1, 20);
  const allowWrite = boolSetting(data.allowWrite, true);
  const maxPhotos = boolSetting(data.allowPhotos, true) ? MAX_REVIEW_PHOTOS : 0;
  const t = (key: string, fallback: string) => textOf(root, key, fallback);
  const locale = pageLocale();
  const session = getSession({ baseUrl: settings.baseUrl, customer: settings.customer });
  const api = blockClient({ reviewsByProduct, reviewsCreate, reviewsProductSummary, reviewsUploadImage }, settings, { session });
  const dateFormat = new Intl.DateTimeFormat(locale, { year: "numeric", month: "long", day: "numeric" });

  const summaryBox = el("div", "fd-reviews__summary");
  const status = statusLine("fd-reviews__status");
  const list = el("ul", "fd-reviews__list");
  const actions = el("div", "fd-reviews__actions");
  const more = el("button", "fd-button fd-reviews__more", t("showMore", "Show more reviews"));
  more.type = "button";
  more.hidden = true;
  const writeButton = el("button", "fd-button fd-button--solid fd-reviews__write");
  writeButton.append(el("span", undefined, t("write", "Write a review")));
  writeButton.type = "button";
  writeButton.hidden = !allowWrite;
  actions.append(more, writeButton);
  const formBox = el("div", "fd-reviews__form-box");
  root.querySelector(".fd-reviews__fallback")?.remove();
  root.append(summaryBox, status, list, actions, formBox);
  let shown = 0;
  let total = 0;

  // ---- Summary and list ----------------------------------------------------------------------

  function renderSummary(summary: RatingSummary | null) {
    if (!summary || summary.count === 0) {
      summaryBox.replaceChildren();
      return;
    }
    const left = el("div", "fd-reviews__overall");
    left.append(
      el("p", "fd-reviews__average", formatRating(summary.average, locale)),
      renderStars(summary.average, t("starsLabel", "Rated {rating} out of 5"), locale),
      el("p", "fd-reviews__based-on", countText(summary.count, t("basedOnOne", "Based on 1 review"), t("basedOn", "Based on {number} reviews"), locale)),
    );
    const bars = el("ul", "fd-reviews__bars");
    for (const stars of [5, 4, 3, 2, 1] as const) {
      const count = summary.distribution[String(stars) as keyof RatingSummary["distribution"]] ?? 0;
      const li = el("li", "fd-reviews__bar");
      li.setAttribute("aria-label", interpolate(t("barLabel", "{stars} stars: {number} reviews"), { stars, number: count }));
      const track = el("span", "fd-reviews__bar-track");
      const fill = el("span", "fd-reviews__bar-fill");
      fill.style.width = `${summary.count ? Math.round((count / summary.count) * 100) : 0}%`;
      track.append(fill);
      li.append(el("span", undefined, `${stars} ★`), track, el("span", undefined, String(count)));
      li.querySelectorAll("span").forEach((s) => s.setAttribute("aria-hidden", "true"));
      bars.append(li);
    }
    summaryBox.replaceChildren(left, bars);
  }

  function renderReview(r: PublicReview): HTMLLIElement {
    const li = el("li", "fd-review");
    li.dataset.reviewId = r.id;
    const head = el("div", "fd-review__head");
    head.append(renderStars(r.rating, t("starsLabel", "Rated {rating} out of 5"), locale), el("span", "fd-review__author", r.name));
    const date = new Date(r.published_at ?? r.created_at);
    if (!Number.isNaN(date.getTime())) {
      const time = el("time", "fd-review__date", dateFormat.format(date));
      time.dateTime = date.toISOString();
      head.append(time);
    }
    if (r.verified_buyer) head.append(el("span", "fd-review__verified", t("verified", "Verified buyer")));
    li.append(head);
    if (r.title) li.append(el("h3", "fd-review__title", r.title));
    li.append(el("p", "fd-review__text", r.body));
    const photos = r.images.map((u) => safeImageUrl(u, window.location.origin, settings.baseUrl)).filter((u): u is string => !!u);
    if (photos.length) {
      const ul = el("ul", "fd-review__photos");
      for (const src of photos) {
        const a = el("a");
        a.href = src;
        a.target = "_blank";
        a.rel = "noopener";
        const img = el("img", "fd-review__photo");
        img.src = src;
        img.alt = interpolate(t("reviewPhoto", "Photo by {author}"), { author: r.name });
        img.loading = "lazy";
        a.append(img);
        const item = el("li");
        item.append(a);
        ul.append(item);
      }
      li.append(ul);
    }
    return li;
  }

  async function loadPage(first: boolean) {
    root.setAttribute("aria-busy", "true");
    if (first) {
      root.dataset.state = "loading";
      status.className = "fd-reviews__status";
      status.textContent = t("loading", "Loading reviews…");
    }
    more.disabled = true;
    try {
      const [page, summary] = await Promise.all([
        api.reviewsByProduct({ params: { id: productId! }, query: { skip: shown, take } }),
        first ? api.reviewsProductSummary({ params: { id: productId! } }) : Promise.resolve(undefined),
      ]);
      if (summary !== undefined) renderSummary(summary);
      total = page.total;
      for (const r of page.reviews) list.append(renderReview(r));
      shown += page.reviews.length;
      more.hidden = shown >= total || page.reviews.length === 0;
      status.textContent = total === 0 ? t("empty", "No reviews yet. Be the first to review this product.") : "";
      root.dataset.state = total === 0 ? "empty" : "ready";
      root.dataset.count = String(shown);
      root.dataset.total = String(total);
    } catch (error) {
      console.warn("[fashion-blocks] reviews failed", error);
      if (first) {
        root.dataset.state = "error";
        status.className = "fd-reviews__status fd-reviews__status--error";
        status.textContent = t("error", "We couldn't load the reviews.");
      }
      more.hidden = false;
      more.textContent = t("retry", "Try again");
    } finally {
      more.disabled = false;
      root.setAttribute("aria-busy", "false");
    }
  }

  more.addEventListener("click", () => {
    more.textContent = t("showMore", "Show more reviews");
    void loadPage(shown === 0 && root.dataset.state === "error");
  });

  // ---- Write a review ------------------------------------------------------------------------

  let form: HTMLFormElement | null = null;

  function buildForm(): HTMLFormElement {
    const f = el("form", "fd-reviews__form");
    f.noValidate = true;
    const uid = `fd-review-${Math.random().toString(36).slice(2, 8)}`;
    f.append(el("h3", undefined, t("formHeading", "Write a review")));

    // Rating: five radio buttons shown as stars.
    const ratingSet = el("fieldset", "fd-reviews__field");
    ratingSet.append(el("legend", undefined, t("rating", "Your rating")));
    const stars = el("div", "fd-reviews__rating");
    const labels: HTMLLabelElement[] = [];
    for (let i = 1; i <= 5; i++) {
      const input = el("input", "fd-visually-hidden");
      input.type = "radio";
      input.name = "rating";
      input.value = String(i);
      input.id = `${uid}-r${i}`;
      const label = el("label", undefined, "★");
      label.htmlFor = input.id;
      label.title = interpolate(t("ratingOption", "{stars} out of 5 stars"), { stars: i });
      label.setAttribute("aria-label", label.title);
      labels.push(label);
      stars.append(input, label);
    }
    const paint = () => {
      const v = Number(new FormData(f).get("rating") ?? 0);
      labels.forEach((l, i) => l.classList.toggle("is-on", i < v));
    };
    stars.addEventListener("change", () => {
      paint();
      formError.textContent = "";
    });
    ratingSet.append(stars);

    const titleField = el("label", "fd-reviews__field");
    const titleInput = el("input");
    titleInput.type = "text";
    titleInput.name = "title";
    titleInput.maxLength = 150;
    titleField.append(el("span", undefined, t("title", "Title (optional)")), titleInput);

    const textField = el("label", "fd-reviews__field");
    const textarea = el("textarea");
    textarea.name = "body";
    textarea.rows = 5;
    textarea.maxLength = 5000;
    textarea.required = true;
    textField.append(el("span", undefined, t("text", "Your review")), textarea);
    textarea.addEventListener("input", () => {
      formError.textContent = "";
    });
    f.append(ratingSet, titleField, textField);

    // Photos: chosen files, shown as thumbnails, compressed and uploaded on submit.
    const photos: File[] = [];
    const photoList = el("ul", "fd-reviews__photo-list");
    if (maxPhotos > 0) {
      const photoField = el("div", "fd-reviews__field");
      const pick = el("label", "fd-button fd-reviews__add-photo");
      const fileInput = el("input", "fd-visually-hidden");
      fileInput.type = "file";
      fileInput.name = "photos";
      fileInput.accept = "image/jpeg,image/png,image/webp";
      fileInput.multiple = true;
      pick.append(el("span", undefined, t("addPhotos", "Add photos")), fileInput);
      photoField.append(el("span", undefined, interpolate(t("photos", "Photos (optional, up to {max})"), { max: maxPhotos })), pick);
      const renderPhotos = () => {
        photoList.replaceChildren(
          ...photos.map((file, i) => {
            const li = el("li");
            const img = el("img", "fd-review__photo");
            img.src = URL.createObjectURL(file);
            img.alt = "";
            const remove = el("button", undefined, "×");
            remove.type = "button";
            remove.setAttribute("aria-label", t("removePhoto", "Remove photo"));
            remove.addEventListener("click", () => {
              photos.splice(i, 1);
              renderPhotos();
            });
            li.append(img, remove);
            return li;
          }),
        );
      };
      fileInput.addEventListener("change", () => {
        for (const file of Array.from(fileInput.files ?? [])) {
          if (photos.length >= maxPhotos) break;
          if (photoProblem(file)) {
            formError.textContent = t("errorPhoto", "This file is not a photo we can use. Choose a JPEG, PNG or WebP image.");
            continue;
          }
          photos.push(file);
        }
        fileInput.value = "";
        renderPhotos();
      });
      f.append(photoField, photoList);
    }

    const formError = el("p", "fd-reviews__form-error");
    formError.setAttribute("role", "alert");
    const buttons = el("div", "fd-reviews__actions");
    const submit = el("button", "fd-button fd-button--solid");
    submit.type = "submit";
    submit.append(el("span", undefined, t("submit", "Post review")));
    const cancel = el("button", "fd-button", t("cancel", "Cancel"));
    cancel.type = "button";
    cancel.addEventListener("click", () => {
      f.hidden = true;
      writeButton.hidden = false;
      writeButton.focus();
    });
    buttons.append(submit, cancel);
    const progress = statusLine("fd-reviews__status");
    f.append(formError, buttons, progress);

    f.addEventListener("submit", (event) => {
      event.preventDefault();
      const fd = new FormData(f);
      const input = { rating: Number(fd.get("rating") ?? 0), title: String(fd.get("title") ?? "").trim(), body: String(fd.get("body") ?? "") };
      const problem = reviewFormProblem(input);
      if (problem) {
        formError.textContent = problem === "rating" ? t("errorRating", "Choose a rating from 1 to 5 stars.") : t("errorText", "Write a few words about the product.");
        (problem === "rating" ? stars.querySelector<HTMLInputElement>("input") : textarea)?.focus();
        return;
      }
      formError.textContent = "";
      submit.disabled = true;
      root.dataset.form = "submitting";
      progress.textContent = t("submitting", "Posting your review…");
      void (async () => {
        try {
          const review = await withSession(session, async () => {
            const urls: string[] = [];
            for (const file of photos) {
              const prepared = (await preparePhoto(file, null, { width: 0, height: 0 })).file;
              const upload = new FormData();
              upload.append("image", prepared, "photo.jpg");
              urls.push((await api.reviewsUploadImage({ body: upload })).url);
            }
            return api.reviewsCreate({ body: { product_id: productId!, rating: input.rating, title: input.title || null, body: input.body, images: urls } });
          });
          root.dataset.form = "posted";
          root.dataset.postedReview = review.id;
          const thanks = el("p", "fd-reviews__thanks", t("thanks", "Thank you! Your review will appear once it has been checked."));
          thanks.setAttribute("role", "status");
          formBox.replaceChildren(thanks);
          form = null;
          // Approved at once (an admin's store may publish automatically): show it.
          if (review.status === "approved" || review.status === "published") list.prepend(renderReview(review));
        } catch (error) {
          console.warn("[fashion-blocks] the review could not be posted", error);
          root.dataset.form = "error";
          formError.textContent =
            error instanceof ApiClientError && error.status >= 400 && error.status < 500 && error.status !== 429 && error.status !== 401
              ? error.message
              : t("errorPost", "We couldn't post your review. Please try again.");
          progress.textContent = "";
          submit.disabled = false;
        }
      })();
    });
    paint();
    return f;
  }

  writeButton.addEventListener("click", () => {
    if (!form) {
      form = buildForm();
      formBox.replaceChildren(form);
    }
    form.hidden = false;
    writeButton.hidden = true;
    form.querySelector<HTMLInputElement>("input[name=rating]")?.focus();
  });

  void loadPage(true);
}

mountAll(ROOT_SELECTOR, mount);
