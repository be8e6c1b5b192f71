import "server-only";
import { env } from "@/platform/env";
import { log } from "@/platform/ops/log";
import { schedulePeriodic } from "@/platform/ops/periodic";
import { type SweepCount, sweepUnreferencedImages } from "./image-commands";

/** How often the production server looks for images no content places. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Images placed in no scene, scene version or library entry for IMAGE_UNUSED_GRACE_HOURS are
 * removed, with their bytes once no image names them (a deleted school's too). The grace keeps
 * an image uploaded but not saved yet, or taken out of a scene and put back, and the mark is
 * cleared as soon as some content places the image again. Safe with several app instances: each
 * sweep runs under an advisory lock, and an instance that finds it taken skips that sweep.
 */
export async function sweepImages(graceHours = env().IMAGE_UNUSED_GRACE_HOURS): Promise<SweepCount | null> {
  const count = await sweepUnreferencedImages(graceHours);
  if (count && (count.marked || count.removed || count.contents))
    log().info({ event: "images.sweep", ...count }, "images: unreferenced images swept");
  return count;
}

/** Sweeps every SWEEP_EVERY_MS from now on (the first a few minutes after start), until shutdown. */
export function scheduleImageSweeps(): void {
  schedulePeriodic("images.sweep", SWEEP_EVERY_MS, sweepImages);
}
