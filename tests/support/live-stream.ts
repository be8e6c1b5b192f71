import { expect } from "vitest";

/** A student's live event stream (GET /api/v1/live/{activity}/events on `port`): the states received so far. */
export async function followStream(port: number, activityId: string, cookie: string) {
  const aborter = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/live/${activityId}/events`, {
    headers: { cookie },
    signal: aborter.signal,
  });
  expect(res.status).toBe(200);
  const got = { text: "" };
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      got.text += decoder.decode(value, { stream: true });
    }
  })();
  const states = () =>
    [...got.text.matchAll(/event: state\ndata: (.*)\n\n/g)].map(
      (m) => JSON.parse(m[1]!) as { sceneId: string | null; paused: boolean },
    );
  return { states, stop: () => aborter.abort() };
}

/** Waits until `check` holds, failing with `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
