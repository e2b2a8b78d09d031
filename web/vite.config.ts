import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const sdkSource = fileURLToPath(new URL("../sdks/typescript/src/index.ts", import.meta.url));

/**
 * The web application, built to `web/dist` and served by the gateway at `/`. The SDK is compiled from
 * its source, so the build needs no SDK build first. `npm run dev -w web` serves it with hot reload
 * and sends `/v1` to a platform started with `npm start` (SVC_DEV_API, default http://127.0.0.1:8080).
 */
export default defineConfig({
  plugins: [react()],
  // The gateway puts a fresh nonce in place of this in every page it serves, and in its CSP: the one
  // way CodeMirror may add its stylesheet under `style-src 'self'`.
  html: { cspNonce: "__SVC_CSP_NONCE__" },
  resolve: { alias: { "@svc/sdk": sdkSource } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    // Inline assets would be data: URLs in scripts; keep every asset a file the CSP allows.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    proxy: { "/v1": { target: process.env.SVC_DEV_API ?? "http://127.0.0.1:8080", changeOrigin: false } },
  },
});
