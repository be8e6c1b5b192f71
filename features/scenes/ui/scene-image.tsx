import type { RenderedImage } from "./types";

/**
 * An image of a scene or an option: its stored size as width/height (the page keeps its
 * place before it arrives), never wider than its box (phone to projector), lazily loaded,
 * described by its alt text. A plain <img>: the server already made the one size served.
 */
export function SceneImage({ image, className = "scene-image" }: { image: RenderedImage; className?: string }) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- the stored image is already sized and re-encoded by the server (features/scenes/server/image-process.ts)
    <img
      className={className}
      src={image.src}
      alt={image.alt}
      width={image.width}
      height={image.height}
      loading="lazy"
      decoding="async"
      data-testid="scene-image"
    />
  );
}
