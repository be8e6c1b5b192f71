import "server-only";
import { NextResponse } from "next/server";
import type { ErrorCode } from "@/lib/errors";

/** A route handler's refusal: `{ ok: false, code }` with its status, never cached. */
export function problem(status: number, code: ErrorCode): NextResponse {
  return NextResponse.json({ ok: false, code }, { status, headers: { "Cache-Control": "no-store" } });
}
