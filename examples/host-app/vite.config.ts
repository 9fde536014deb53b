import { defineConfig } from 'vite';

/**
 * The customer backend (examples/customer-backend) is proxied under this app's own origin, so its sign-in cookie is
 * first-party: the SDK's call to the identity provider (`/sso/analytics?response=json`, with credentials) carries it.
 * Point the analytics server's "JWT Identity Provider URI" at http://localhost:5173/sso/analytics.
 */
const backend = process.env.CUSTOMER_BACKEND_URL ?? 'http://localhost:9090';

export default defineConfig({
  server: { port: 5173, proxy: { '/login': backend, '/logout': backend, '/sso': backend } },
  preview: { port: 4173, proxy: { '/login': backend, '/logout': backend, '/sso': backend } },
  build: { target: 'es2022' },
});
