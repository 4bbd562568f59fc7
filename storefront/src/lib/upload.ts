/**
 * A multipart upload with progress. `fetch` cannot report upload progress, so this sends the form
 * with XMLHttpRequest to the address the typed client builds from the contract's endpoint
 * (`api.url(endpoints.x)`), and reads errors the way the client does (ApiClientError with the
 * server's message).
 */
import { ApiClientError } from "~/client";

export interface UploadOptions {
  method?: "POST" | "PUT" | "PATCH";
  /** 0–100 as the bytes go out. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export function uploadForm<T>(url: string, form: FormData, opts: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(opts.method ?? "POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let data: unknown = undefined;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(100);
        resolve(data as T);
        return;
      }
      const e =
        data && typeof data === "object"
          ? (data as { error?: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown } }).error
          : undefined;
      if (e && typeof e.code === "string" && typeof e.message === "string") {
        reject(new ApiClientError(xhr.status, e.code, e.message, e.details, typeof e.requestId === "string" ? e.requestId : undefined));
      } else reject(new ApiClientError(xhr.status, "http_error", `Request failed with status ${xhr.status}`));
    };
    xhr.onerror = () => reject(new TypeError("Network error"));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    if (opts.signal) {
      if (opts.signal.aborted) {
        reject(new DOMException("The upload was cancelled.", "AbortError"));
        return;
      }
      opts.signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
