-- Sessions that end when they should (issue #17): every session token carries
-- the user's session_version at sign-in, and a request whose token names an
-- older version is signed out. Sign-out, a password reset, disabling the
-- account and a new or revoked sign-in code add one. last_active_at: a
-- teacher's or manager's last use, for the inactivity limit.
ALTER TABLE "users" ADD COLUMN "session_version" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "users" ADD COLUMN "last_active_at" TIMESTAMPTZ(3);
