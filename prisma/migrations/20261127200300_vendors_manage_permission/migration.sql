-- Data: admins who held every permission before vendors.manage existed (issue 17) keep holding every permission.
UPDATE "users" SET "permissions" = array_append("permissions", 'vendors.manage')
WHERE "role" = 'ADMIN'
  AND "permissions" @> ARRAY['catalog.import', 'catalog.edit', 'catalog.sync', 'reviews.moderate', 'orders.manage', 'returns.manage', 'drops.manage', 'ads.manage', 'media.manage', 'ai.train', 'recommendations.manage', 'admins.manage', 'apikeys.manage', 'privacy.manage']::TEXT[]
  AND NOT ('vendors.manage' = ANY("permissions"));
