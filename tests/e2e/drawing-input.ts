import type { Locator, Page } from "@playwright/test";

/** A line across the canvas with the mouse (pointerType "mouse": no pressure stored). */
export async function mouseLine(page: Page, canvas: Locator, from: [number, number], to: [number, number]) {
  // the mouse reaches only what is on the screen: the preview may be below the fold under a long form
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++)
    await page.mouse.move(
      box.x + box.width * (from[0] + ((to[0] - from[0]) * i) / 8),
      box.y + box.height * (from[1] + ((to[1] - from[1]) * i) / 8),
    );
  await page.mouse.up();
}

/** A line with a finger: real touch input through the browser (pointerType "touch"). */
export async function touchLine(page: Page, canvas: Locator, from: [number, number], to: [number, number]) {
  const box = (await canvas.boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const at = (t: number) => ({
    x: box.x + box.width * (from[0] + (to[0] - from[0]) * t),
    y: box.y + box.height * (from[1] + (to[1] - from[1]) * t),
  });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [at(0)] });
  for (let i = 1; i <= 8; i++)
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [at(i / 8)] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}
