/**
 * Fetching images by URL without SSRF (app/lib/image-source.server.ts): private addresses
 * refused (literal or resolved, on redirects too), our storage URLs recognised, deadline and
 * size cap.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageSourceError, fetchPublicImage, isPrivateAddress, ownStorageKey, readImageUrl } from "../../app/lib/image-source.server";

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["255.255.255.255", true],
    ["8.8.8.8", false],
    ["93.184.216.34", false],
    ["::1", true],
    ["::", true],
    ["fe80::1", true],
    ["fd12:3456::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:8.8.8.8", false],
    ["2001:db8::1", true],
    ["2606:4700:4700::1111", false],
    ["not-an-ip", true],
  ])("%s → %s", (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

describe("fetchPublicImage", () => {
  let server: http.Server;
  let base: string;
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/img.png") {
        res.writeHead(200, { "content-type": "image/png" });
        return res.end(png);
      }
      if (req.url === "/big") {
        res.writeHead(200, { "content-type": "image/jpeg" });
        return res.end(Buffer.alloc(2048));
      }
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 2000);
      if (req.url === "/loop") {
        res.writeHead(302, { location: "/loop" });
        return res.end();
      }
      if (req.url === "/to-metadata") {
        res.writeHead(302, { location: "http://169.254.169.254/latest" });
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const loopbackAllowed = { allowAddress: (ip: string) => ip === "127.0.0.1" || !isPrivateAddress(ip) };

  it("refuses loopback by default, by literal address and by name", async () => {
    await expect(fetchPublicImage(`${base}/img.png`)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/not a public address/) });
    const port = new URL(base).port;
    await expect(fetchPublicImage(`http://localhost:${port}/img.png`)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/localhost .*not a public address/) });
  });

  it("fetches when the policy allows the address; follows redirects, re-checking each hop", async () => {
    const r = await fetchPublicImage(`${base}/img.png`, loopbackAllowed);
    expect(Buffer.from(r.bytes).equals(png)).toBe(true);
    expect(r.contentType).toBe("image/png");
    await expect(fetchPublicImage(`${base}/to-metadata`, loopbackAllowed)).rejects.toMatchObject({ status: 400 });
    await expect(fetchPublicImage(`${base}/loop`, loopbackAllowed)).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/redirects too many/) });
    await expect(fetchPublicImage(`${base}/missing`, loopbackAllowed)).rejects.toMatchObject({ status: 422, message: "The image URL answered HTTP 404" });
  });

  it("enforces the size cap and the deadline", async () => {
    await expect(fetchPublicImage(`${base}/big`, { ...loopbackAllowed, maxBytes: 1024 })).rejects.toMatchObject({ status: 413 });
    const started = Date.now();
    await expect(fetchPublicImage(`${base}/slow`, { ...loopbackAllowed, timeoutMs: 300 })).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/in time/) });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("refuses URLs that are not http(s) or carry credentials", async () => {
    for (const url of ["file:///etc/passwd", "gopher://x", "not a url", "http://user:pass@example.com/x.jpg"]) {
      await expect(fetchPublicImage(url)).rejects.toBeInstanceOf(ImageSourceError);
    }
  });
});

describe("our storage URLs", () => {
  const files = new Map([["images/a.jpg", new Uint8Array([0xff, 0xd8, 0xff])]]);
  const ctx = {
    config: { APP_URL: "https://shop.example.com", SHOPIFY_APP_URL: undefined } as never,
    storage: { publicUrl: (k: string) => `/uploads/${k}`, get: async (k: string) => files.get(k) ?? null } as never,
  };

  it("recognises /uploads/ paths, also under APP_URL, and reads them from storage", async () => {
    expect(ownStorageKey(ctx, "/uploads/images/a.jpg")).toBe("images/a.jpg");
    expect(ownStorageKey(ctx, "https://shop.example.com/uploads/images/a.jpg?v=2")).toBe("images/a.jpg");
    expect(ownStorageKey(ctx, "https://elsewhere.example.com/uploads/images/a.jpg")).toBeNull();
    expect(ownStorageKey(ctx, "/uploads/../secret")).toBeNull();
    expect(Array.from(await readImageUrl(ctx, "/uploads/images/a.jpg"))).toEqual([0xff, 0xd8, 0xff]);
    await expect(readImageUrl(ctx, "/uploads/images/none.jpg")).rejects.toMatchObject({ status: 404 });
    await expect(readImageUrl(ctx, "/etc/passwd")).rejects.toMatchObject({ status: 400 });
  });
});
