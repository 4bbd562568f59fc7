import { describe, expect, it } from "vitest";
import { DomainError } from "../../app/lib/domain-errors";
import { formOf, limitRequestBody, readArrayBuffer, readFormData, readText } from "../../app/lib/body-limit.server";

const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

/** A body of `total` bytes made on demand, counting the chunks anyone pulled from it. */
function generatedBody(total: number) {
  const stats = { pulled: 0, cancelled: false };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        stats.pulled++;
        const n = Math.min(CHUNK, total - sent);
        sent += n;
        controller.enqueue(new Uint8Array(n).fill(0x61));
      },
      cancel() {
        stats.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, stats };
}

const multipartHeaders = { "content-type": "multipart/form-data; boundary=XyZ" };
const post = (body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  new Request("http://localhost/upload", { method: "POST", headers, body, duplex: "half" } as RequestInit);

async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  expect((e as DomainError).kind).toBe("too_large");
  return e as DomainError;
}

describe("request bodies read with a limit", () => {
  it("a generated 200 MB chunked body is refused after reading at most the limit plus one chunk", async () => {
    const { stream, stats } = generatedBody(200 * MB);
    const limit = 10 * MB;
    const e = await refusal(readFormData(post(stream, multipartHeaders), limit));
    expect(e.message).toBe("The request body is too large (at most 10 MB)");
    expect(stats.pulled).toBeLessThanOrEqual(limit / CHUNK + 1);
    expect(stats.pulled).toBeGreaterThan(limit / CHUNK);
    expect(stats.cancelled).toBe(true);
  });

  it("the same holds for text and bytes (JSON bodies, webhooks)", async () => {
    for (const read of [readText, readArrayBuffer]) {
      const { stream, stats } = generatedBody(200 * MB);
      await refusal(read(post(stream, { "content-type": "application/json" }), MB));
      expect(stats.pulled).toBeLessThanOrEqual(MB / CHUNK + 1);
    }
  });

  it("a body whose Content-Length is above the limit is refused without reading it", async () => {
    const { stream, stats } = generatedBody(200 * MB);
    const request = new Request("http://localhost/upload", { method: "POST", headers: { ...multipartHeaders, "content-length": String(200 * MB) }, body: stream, duplex: "half" } as RequestInit);
    expect(() => limitRequestBody(request, 10 * MB)).toThrow("The request body is too large (at most 10 MB)");
    await refusal(readFormData(request, 10 * MB));
    expect(stats.pulled).toBe(0);
  });

  it("bodies within the limit read as usual", async () => {
    const form = new FormData();
    form.set("title", "Look");
    form.set("file", new File([new Uint8Array(300 * 1024)], "a.jpg", { type: "image/jpeg" }));
    const read = await readFormData(new Request("http://localhost/upload", { method: "POST", body: form }), MB);
    expect(read.get("title")).toBe("Look");
    expect((read.get("file") as File).size).toBe(300 * 1024);
    expect(await readText(post('{"a":1}', { "content-type": "application/json" }), 1024)).toBe('{"a":1}');
    // Exactly at the limit is fine.
    expect((await readArrayBuffer(post(new Uint8Array(1000), {}), 1000)).byteLength).toBe(1000);
    await refusal(readArrayBuffer(post(new Uint8Array(1001), {}), 1000));
    expect(await readText(new Request("http://localhost/x"), 10)).toBe("");
  });

  it("admin pages get a 413 Response with the API's JSON error instead of an error page", async () => {
    const { stream } = generatedBody(20 * MB);
    const thrown = await formOf(post(stream, { "content-type": "application/x-www-form-urlencoded" })).then(
      () => null,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect((await res.json()).error).toMatchObject({ code: "payload_too_large", message: "The request body is too large (at most 1 MB)" });
    const ok = await formOf(post(new URLSearchParams({ intent: "save" }), { "content-type": "application/x-www-form-urlencoded" }));
    expect(ok.get("intent")).toBe("save");
  });
});
