-- Vendor payouts (issue 17): the commission rate a period was made with, so a later change of the
-- vendor's rate only applies to periods not yet closed, and the refunds deducted from its gross.
ALTER TABLE "vendor_payouts" ADD COLUMN "commission_rate" DECIMAL(5,2);
ALTER TABLE "vendor_payouts" ADD COLUMN "refunds" DECIMAL(12,2) NOT NULL DEFAULT 0;

-- Rows made before the column existed: the rate their figures imply, else the vendor's.
UPDATE "vendor_payouts" p SET "commission_rate" = COALESCE(
  CASE WHEN p."gross_sales" > 0 THEN LEAST(100, ROUND(p."commission" * 100 / p."gross_sales", 2)) END,
  (SELECT v."commission_rate" FROM "vendors" v WHERE v."id" = p."vendor_id"))
WHERE p."commission_rate" IS NULL;
