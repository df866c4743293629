-- Stored texts with values keep their template and values beside the English (docs/decisions/0084), so the web
-- and the e-mails say them in the reader's language. Older failure reasons stay English only; the security
-- details the web used to read back by pattern get their values here.
ALTER TABLE "deposits" ADD COLUMN "failure_said" jsonb;--> statement-breakpoint
ALTER TABLE "security_events" ADD COLUMN "detail_said" jsonb;--> statement-breakpoint
UPDATE security_events SET detail_said = jsonb_build_object('template', 'Ends {at}', 'params', jsonb_build_object('at', substr(detail, 6)))
WHERE type = 'withdrawal_lock_off_confirmed' AND detail ~ '^Ends \S+$';--> statement-breakpoint
UPDATE security_events SET detail_said = jsonb_build_object('template', '{device} ({ip})', 'params',
  jsonb_build_object('device', (regexp_match(detail, '^(.+?) \(([^()]+)\)$'))[1], 'ip', (regexp_match(detail, '^(.+?) \(([^()]+)\)$'))[2]))
WHERE type = 'session_revoked' AND detail ~ '^.+ \([^()]+\)$';--> statement-breakpoint
UPDATE security_events SET detail_said = jsonb_build_object('template', '{device}', 'params', jsonb_build_object('device', detail))
WHERE type = 'session_revoked' AND detail <> 'Signed out' AND detail !~ '^.+ \([^()]+\)$';--> statement-breakpoint
UPDATE security_events SET detail_said = jsonb_build_object('template', '{n} other sessions', 'params', jsonb_build_object('n', split_part(detail, ' ', 1)::int))
WHERE type = 'sessions_revoked' AND detail ~ '^[0-9]+ other sessions$';
