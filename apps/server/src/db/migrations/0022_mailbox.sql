ALTER TABLE "users" ADD COLUMN "mailbox" text;--> statement-breakpoint
-- One account per mailbox from now on (users.service#mailboxOf: the +tag removed; at Gmail the dots too).
-- Accounts that already share a mailbox keep working: only the oldest of each such group is given it.
WITH parts AS (
  SELECT id, created_at,
         split_part(substring(email FROM '^(.*)@[^@]*$'), '+', 1) AS local,
         substring(email FROM '@([^@]*)$') AS domain
  FROM users
), boxes AS (
  SELECT DISTINCT ON (mailbox) id, mailbox
  FROM (
    SELECT id, created_at,
           CASE WHEN domain IN ('gmail.com', 'googlemail.com') THEN replace(local, '.', '') || '@gmail.com'
                ELSE local || '@' || domain END AS mailbox
    FROM parts
  ) m
  ORDER BY mailbox, created_at, id
)
UPDATE users SET mailbox = boxes.mailbox FROM boxes WHERE users.id = boxes.id;--> statement-breakpoint
CREATE UNIQUE INDEX "users_mailbox_key" ON "users" USING btree ("mailbox");
