-- The demo's "default" profile schedules through Placement, as every Nova
-- since Stein does: a database seeded before keeps its other profiles as
-- they are, and gets `placement: true` on its "default" one (set explicitly,
-- also when it said false: that was the old demo default, not a choice).
UPDATE "SchedulerProfile"
SET "config" = json_set("config", '$.placement', json('true'))
WHERE "name" = 'default' AND json_valid("config") AND json_type("config") = 'object';
