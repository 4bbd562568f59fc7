-- Vendor portal (issue 17): rollups of product_daily_stats so a vendor's long ranges stay fast.
-- vendor_daily_stats: the vendor's sums per day (the home's summary and chart read one row per day
-- instead of products × days). product_monthly_stats: per vendor, month (its first day) and product
-- (a year of a product table reads 12 monthly rows per product plus the days of its partial months).
-- Both are kept by statement-level triggers on product_daily_stats, from the rows each statement
-- wrote (transition tables: new rows added, old rows taken off), so every writer of the daily rows
-- (the services' upserts, order and return amounts, the rebuild, a vendor change) keeps them without
-- code of its own; the rebuild recomputes them too (app/services/vendor-stats/daily-stats.server.ts).
-- Rows without a vendor are not rolled up (no vendor page reads them).
-- CreateTable
CREATE TABLE "vendor_daily_stats" (
    "vendor_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "views" INTEGER NOT NULL DEFAULT 0,
    "saves" INTEGER NOT NULL DEFAULT 0,
    "try_ons" INTEGER NOT NULL DEFAULT 0,
    "add_to_carts" INTEGER NOT NULL DEFAULT 0,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "units" INTEGER NOT NULL DEFAULT 0,
    "revenue" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "returned_units" INTEGER NOT NULL DEFAULT 0,
    "refunds" DECIMAL(14,2) NOT NULL DEFAULT 0,

    CONSTRAINT "vendor_daily_stats_pkey" PRIMARY KEY ("vendor_id","day")
);

-- CreateTable
CREATE TABLE "product_monthly_stats" (
    "vendor_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "product_id" TEXT NOT NULL,
    "views" INTEGER NOT NULL DEFAULT 0,
    "saves" INTEGER NOT NULL DEFAULT 0,
    "try_ons" INTEGER NOT NULL DEFAULT 0,
    "add_to_carts" INTEGER NOT NULL DEFAULT 0,
    "orders" INTEGER NOT NULL DEFAULT 0,
    "units" INTEGER NOT NULL DEFAULT 0,
    "revenue" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "returned_units" INTEGER NOT NULL DEFAULT 0,
    "refunds" DECIMAL(14,2) NOT NULL DEFAULT 0,

    CONSTRAINT "product_monthly_stats_pkey" PRIMARY KEY ("vendor_id","month","product_id")
);

-- One function for the three events: the statement's delta is its new rows (+1) and old rows (−1).
-- Upserts in key order, so two transactions adding to the same vendor's days never deadlock on them.
CREATE FUNCTION product_daily_stats_rollup() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  delta text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM rollup_new'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM rollup_old'
    ELSE 'SELECT 1 AS sign, * FROM rollup_new UNION ALL SELECT -1 AS sign, * FROM rollup_old' END;
BEGIN
  EXECUTE format($sql$
    WITH d AS (SELECT * FROM (%s) x WHERE vendor_id IS NOT NULL), v AS (
      INSERT INTO vendor_daily_stats AS t (vendor_id, day, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds)
      SELECT vendor_id, day, sum(sign * views)::int, sum(sign * saves)::int, sum(sign * try_ons)::int, sum(sign * add_to_carts)::int,
             sum(sign * orders)::int, sum(sign * units)::int, sum(sign * revenue), sum(sign * returned_units)::int, sum(sign * refunds)
      FROM d GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (vendor_id, day) DO UPDATE SET
        views = t.views + EXCLUDED.views, saves = t.saves + EXCLUDED.saves, try_ons = t.try_ons + EXCLUDED.try_ons,
        add_to_carts = t.add_to_carts + EXCLUDED.add_to_carts, orders = t.orders + EXCLUDED.orders, units = t.units + EXCLUDED.units,
        revenue = t.revenue + EXCLUDED.revenue, returned_units = t.returned_units + EXCLUDED.returned_units, refunds = t.refunds + EXCLUDED.refunds
    )
    INSERT INTO product_monthly_stats AS t (vendor_id, month, product_id, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds)
    SELECT vendor_id, date_trunc('month', day)::date, product_id, sum(sign * views)::int, sum(sign * saves)::int, sum(sign * try_ons)::int,
           sum(sign * add_to_carts)::int, sum(sign * orders)::int, sum(sign * units)::int, sum(sign * revenue), sum(sign * returned_units)::int, sum(sign * refunds)
    FROM d GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (vendor_id, month, product_id) DO UPDATE SET
      views = t.views + EXCLUDED.views, saves = t.saves + EXCLUDED.saves, try_ons = t.try_ons + EXCLUDED.try_ons,
      add_to_carts = t.add_to_carts + EXCLUDED.add_to_carts, orders = t.orders + EXCLUDED.orders, units = t.units + EXCLUDED.units,
      revenue = t.revenue + EXCLUDED.revenue, returned_units = t.returned_units + EXCLUDED.returned_units, refunds = t.refunds + EXCLUDED.refunds
  $sql$, delta);
  RETURN NULL;
END
$fn$;

CREATE TRIGGER product_daily_stats_rollup_insert AFTER INSERT ON "product_daily_stats"
  REFERENCING NEW TABLE AS rollup_new FOR EACH STATEMENT EXECUTE FUNCTION product_daily_stats_rollup();
CREATE TRIGGER product_daily_stats_rollup_update AFTER UPDATE ON "product_daily_stats"
  REFERENCING OLD TABLE AS rollup_old NEW TABLE AS rollup_new FOR EACH STATEMENT EXECUTE FUNCTION product_daily_stats_rollup();
CREATE TRIGGER product_daily_stats_rollup_delete AFTER DELETE ON "product_daily_stats"
  REFERENCING OLD TABLE AS rollup_old FOR EACH STATEMENT EXECUTE FUNCTION product_daily_stats_rollup();

-- TRUNCATE has no transition table: the rollups are emptied with the daily rows.
CREATE FUNCTION product_daily_stats_rollup_truncate() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM vendor_daily_stats;
  DELETE FROM product_monthly_stats;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER product_daily_stats_rollup_truncate AFTER TRUNCATE ON "product_daily_stats"
  FOR EACH STATEMENT EXECUTE FUNCTION product_daily_stats_rollup_truncate();

-- The rows already kept.
INSERT INTO "vendor_daily_stats" (vendor_id, day, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds)
SELECT vendor_id, day, sum(views)::int, sum(saves)::int, sum(try_ons)::int, sum(add_to_carts)::int, sum(orders)::int, sum(units)::int,
       sum(revenue), sum(returned_units)::int, sum(refunds)
FROM "product_daily_stats" WHERE vendor_id IS NOT NULL GROUP BY 1, 2;

INSERT INTO "product_monthly_stats" (vendor_id, month, product_id, views, saves, try_ons, add_to_carts, orders, units, revenue, returned_units, refunds)
SELECT vendor_id, date_trunc('month', day)::date, product_id, sum(views)::int, sum(saves)::int, sum(try_ons)::int, sum(add_to_carts)::int,
       sum(orders)::int, sum(units)::int, sum(revenue), sum(returned_units)::int, sum(refunds)
FROM "product_daily_stats" WHERE vendor_id IS NOT NULL GROUP BY 1, 2, 3;
