import { describe, expect, it } from "vitest";
import { describeAction } from "@/features/people/shared/signin-log";

describe("the sign-in log's method and result of an action", () => {
  it("names the second factor's steps (app code, recovery code) as the second factor, with their result", () => {
    expect(describeAction("signin.totp.success")).toEqual({ method: "factor", result: "success" });
    expect(describeAction("signin.recovery.failure")).toEqual({ method: "factor", result: "failure" });
    expect(describeAction("signin.totp.throttled")).toEqual({ method: "factor", result: "throttled" });
    expect(describeAction("signin.password.failure")).toEqual({ method: "password", result: "failure" });
    expect(describeAction("factor.totp.added")).toEqual({ method: "change", result: "success" });
  });
});
