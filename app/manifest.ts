import type { MetadataRoute } from "next";

/** The web app manifest (/manifest.webmanifest): a tablet can pin the app to its home screen. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "まなびや",
    short_name: "まなびや",
    lang: "ja",
    start_url: "/dashboard",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#1f7a4d", // --color-accent-green
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
