-- A user's referral reward total (the admin users page, the dashboard, the referral summary) sums
-- every reward row of the user: for the first users of a large platform thousands of rows (at 1M
-- seeded users, 585 on average for the 20 oldest). With the amount in the index this is an
-- index-only scan (the admin users last page at 1M: 482 ms -> 2 ms cold; docs/BENCHMARKS.md).
CREATE INDEX IF NOT EXISTS referral_rewards_user_amount_idx ON referral_rewards (user_id) INCLUDE (amount);
