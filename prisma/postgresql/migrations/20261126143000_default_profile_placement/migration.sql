-- The demo's "default" profile schedules through Placement, as every Nova
-- since Stein does (prisma/migrations/20261126143000_default_profile_placement,
-- the same rows).
UPDATE "SchedulerProfile"
SET "config" = jsonb_set("config"::jsonb, '{placement}', 'true'::jsonb)::text
WHERE "name" = 'default' AND COALESCE("schedscope_json_type"("config"), '') = 'object';
