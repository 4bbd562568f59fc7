/**
 * app/lib/store-time-zone.ts against hand-computed instants: a late-evening UTC order on the next
 * day in Tokyo and the same day in New York, the 23- and 25-hour days of New York's daylight saving
 * changes (8 March and 1 November 2026), Berlin's spring change, Santiago's day that starts at 01:00
 * (its clocks skip midnight on 6 September 2026), and the zone setting's validation.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../app/config.server";
import { addDays, dayIn, daySpan, dayStart, isTimeZone, TimeZoneName, todayIn, zoneOffsetMs } from "../../app/lib/store-time-zone";

const HOUR = 3_600_000;
const iso = (d: Date) => d.toISOString();

describe("days in a zone", () => {
  it("23:30 UTC is the next day in Tokyo (+9) and the same day in New York (−4 in October)", () => {
    const order = new Date("2026-10-05T23:30:00Z");
    expect(dayIn(order, "Asia/Tokyo")).toBe("2026-10-06");
    expect(dayIn(order, "America/New_York")).toBe("2026-10-05");
    expect(dayIn(order, "UTC")).toBe("2026-10-05");
    expect(zoneOffsetMs(order, "Asia/Tokyo")).toBe(9 * HOUR);
    expect(zoneOffsetMs(order, "America/New_York")).toBe(-4 * HOUR);
  });

  it("today follows the zone's clock", () => {
    const now = new Date("2026-11-27T20:00:00Z");
    expect(todayIn("UTC", now)).toBe("2026-11-27");
    expect(todayIn("Asia/Tokyo", now)).toBe("2026-11-28"); // 05:00 on the 28th
    expect(todayIn("America/Los_Angeles", now)).toBe("2026-11-27"); // 12:00
    expect(todayIn("Pacific/Pago_Pago", new Date("2026-11-28T05:00:00Z"))).toBe("2026-11-27"); // −11 h
  });

  it("days start at local midnight, in UTC", () => {
    expect(iso(dayStart("2026-10-06", "Asia/Tokyo"))).toBe("2026-10-05T15:00:00.000Z");
    expect(iso(dayStart("2026-10-05", "America/New_York"))).toBe("2026-10-05T04:00:00.000Z");
    expect(iso(dayStart("2026-10-05", "UTC"))).toBe("2026-10-05T00:00:00.000Z");
  });

  it("New York's spring-forward day has 23 hours and its fall-back day 25", () => {
    // 8 March 2026: 02:00 EST → 03:00 EDT. 1 November 2026: 02:00 EDT → 01:00 EST.
    const spring = daySpan("2026-03-08", "2026-03-08", "America/New_York");
    expect(iso(spring.start)).toBe("2026-03-08T05:00:00.000Z");
    expect(iso(spring.end)).toBe("2026-03-09T04:00:00.000Z");
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * HOUR);
    const autumn = daySpan("2026-11-01", "2026-11-01", "America/New_York");
    expect(iso(autumn.start)).toBe("2026-11-01T04:00:00.000Z");
    expect(iso(autumn.end)).toBe("2026-11-02T05:00:00.000Z");
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * HOUR);
    // The last second of the long day is still that day; the next one is the 2nd.
    expect(dayIn(new Date("2026-11-02T04:59:59Z"), "America/New_York")).toBe("2026-11-01");
    expect(dayIn(new Date("2026-11-02T05:00:00Z"), "America/New_York")).toBe("2026-11-02");
  });

  it("Berlin's spring change (29 March 2026, 02:00 CET → 03:00 CEST) and a week across it", () => {
    const span = daySpan("2026-03-29", "2026-03-29", "Europe/Berlin");
    expect(iso(span.start)).toBe("2026-03-28T23:00:00.000Z");
    expect(iso(span.end)).toBe("2026-03-29T22:00:00.000Z");
    const week = daySpan("2026-03-26", "2026-04-01", "Europe/Berlin");
    expect(week.end.getTime() - week.start.getTime()).toBe(7 * 24 * HOUR - HOUR);
  });

  it("a day whose midnight does not exist starts at 01:00 (Santiago, 6 September 2026: 00:00 −04 → 01:00 −03)", () => {
    expect(iso(dayStart("2026-09-06", "America/Santiago"))).toBe("2026-09-06T04:00:00.000Z");
    expect(dayIn(new Date("2026-09-06T03:59:59Z"), "America/Santiago")).toBe("2026-09-05");
    expect(iso(dayStart("2026-09-07", "America/Santiago"))).toBe("2026-09-07T03:00:00.000Z");
  });

  it("adds calendar days across months and years", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-10-05", -30)).toBe("2026-09-05");
  });
});

describe("the STORE_TIMEZONE setting", () => {
  it("accepts IANA names and refuses anything else", () => {
    for (const z of ["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo", "America/Argentina/Buenos_Aires"]) expect(isTimeZone(z)).toBe(true);
    for (const z of ["Mars/Olympus", "", "+02:00", "Europe/Paris; DROP TABLE", "'UTC'"]) expect(isTimeZone(z)).toBe(false);
    expect(TimeZoneName.safeParse(" Asia/Tokyo ").data).toBe("Asia/Tokyo");
    expect(TimeZoneName.safeParse("Mars/Olympus").success).toBe(false);
  });

  it("defaults to UTC; a bad zone fails the configuration with its name", () => {
    expect(loadConfig({ DATA_DIR: "/tmp/x" }).STORE_TIMEZONE).toBe("UTC");
    expect(loadConfig({ DATA_DIR: "/tmp/x", STORE_TIMEZONE: "Europe/Paris" }).STORE_TIMEZONE).toBe("Europe/Paris");
    expect(() => loadConfig({ DATA_DIR: "/tmp/x", STORE_TIMEZONE: "Mars/Olympus" })).toThrow(/STORE_TIMEZONE.*Mars\/Olympus/);
  });
});
