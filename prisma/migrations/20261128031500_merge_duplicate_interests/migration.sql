-- Issue 20: duplicate interests ("t-shirt" / "t-shirts" / "T Shirt") merged in users.metadata.interests
-- with the rule of app/lib/interests.ts (interestKey): case, spaces, hyphens and underscores and the
-- plural of the last word don't count; the first spelling (trimmed, lower case) is kept, in order.
-- Data only: the schema does not change.
WITH terms AS (
  SELECT u.id, t.pos, lower(regexp_replace(btrim(t.term), '\s+', ' ', 'g')) AS term
  FROM users u
  CROSS JOIN LATERAL unnest(string_to_array(u.metadata->>'interests', ',')) WITH ORDINALITY AS t(term, pos)
  WHERE jsonb_typeof(u.metadata->'interests') = 'string'
),
compact AS (
  SELECT id, pos, term, regexp_replace(term, '[\s_-]+', '', 'g') AS w FROM terms WHERE term <> ''
),
keyed AS (
  SELECT id, pos, term,
    CASE
      WHEN length(w) > 4 AND w ~ '(sses|xes|ches|shes|zes)$' THEN left(w, -2)
      WHEN length(w) > 4 AND w ~ 'ies$' AND w !~ '(hoodies|cookies|movies|ties)$' THEN left(w, -3) || 'y'
      WHEN length(w) > 3 AND w ~ 's$' AND w !~ '(ss|us|is)$' THEN left(w, -1)
      ELSE w
    END AS k
  FROM compact
),
firsts AS (
  SELECT DISTINCT ON (id, k) id, k, pos, term FROM keyed WHERE k <> '' ORDER BY id, k, pos
),
merged AS (
  SELECT id, string_agg(term, ',' ORDER BY pos) AS interests FROM firsts GROUP BY id
)
UPDATE users u SET metadata = jsonb_set(u.metadata, '{interests}', to_jsonb(m.interests))
FROM merged m
WHERE u.id = m.id AND u.metadata->>'interests' IS DISTINCT FROM m.interests;
