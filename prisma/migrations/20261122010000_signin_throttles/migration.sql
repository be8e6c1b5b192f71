-- Sign-in failure counters per account, per sign-in code and per IP address
-- (docs/product-design.md "Brute force": a whole school shares one IP, so accounts and codes
-- are limited on their own and the IP ceiling is generous).
CREATE TABLE "signin_throttles" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "window_start" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "signin_throttles_pkey" PRIMARY KEY ("key")
);
