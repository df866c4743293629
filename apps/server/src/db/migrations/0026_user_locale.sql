-- The language a person reads the app, their e-mails and statements in (issue 41, docs/decisions/0075).
ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;