'use strict';
/**
 * The backend of an app that embeds the analytics server, reduced to what SSO needs:
 * - its own sign-in (a demo one: POST /login with an email and password of USERS), keeping a session in a cookie or
 *   answering a bearer token for clients that send headers instead of cookies;
 * - GET /sso/analytics, the "JWT Identity Provider URI" of the analytics server's settings: it signs a JWT for the
 *   signed-in user with the shared secret. With `?response=json` (what the embedding SDK sends) it answers `{jwt}`;
 *   without it (full-app embedding) it redirects the browser to `{analyticsUrl}/auth/sso?token=true&jwt=...`;
 *   with nobody signed in it answers 401 `{status: "error", message}`;
 * - credentialed CORS for the one origin of the app's frontend.
 * Copy it, replace the demo users with your own authentication, and keep the secret out of the code.
 */
const crypto = require('node:crypto');
const express = require('express');
const cookieParser = require('cookie-parser');
const jwt = require('jsonwebtoken');

/** Demo accounts. Yours come from your own user store. */
const DEMO_USERS = [
  { email: 'rene@example.com', password: 'demo-password-1', firstName: 'René', lastName: 'Mercier', groups: ['sales'] },
  { email: 'ana@example.com', password: 'demo-password-2', firstName: 'Ana', lastName: 'Silva', groups: ['sales', 'finance'] },
];
const SESSION_COOKIE = 'customer.sid';
const TOKEN_LIFETIME_SECONDS = 10 * 60;

/**
 * @param {object} options
 * @param {string} options.analyticsUrl base URL of the analytics server, e.g. https://analytics.example.com
 * @param {string} options.jwtSharedSecret the "JWT shared secret" generated in the analytics server's admin settings
 * @param {string} [options.frontendOrigin] the origin of your frontend, when it is not served from this backend's origin
 * @param {Array<{email: string, password: string, firstName: string, lastName: string, groups: string[]}>} [options.users]
 */
function createCustomerBackend(options) {
  if (!options || !options.analyticsUrl || !options.jwtSharedSecret) throw new Error('analyticsUrl and jwtSharedSecret are required');
  const analyticsUrl = options.analyticsUrl.replace(/\/+$/, '');
  const users = options.users || DEMO_USERS;
  /** session id -> email; an in-memory store is enough for a demo, not for several processes. */
  const sessions = new Map();

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json());
  app.use(cookieParser());
  app.use(cors(options.frontendOrigin));

  app.post('/login', (req, res) => {
    const { email, password } = req.body || {};
    const user = users.find((u) => u.email === email && safeEqual(u.password, password));
    if (!user) return res.status(401).json({ status: 'error', message: 'Wrong email or password.' });
    const sid = crypto.randomBytes(32).toString('base64url');
    sessions.set(sid, user.email);
    // SameSite=None only when the frontend is on another site (it then must be HTTPS).
    const crossSite = Boolean(options.frontendOrigin);
    res.cookie(SESSION_COOKIE, sid, { httpOnly: true, path: '/', sameSite: crossSite ? 'none' : 'lax', secure: crossSite || req.secure });
    return res.json({ status: 'ok', token: sid });
  });

  app.post('/logout', (req, res) => {
    const sid = sessionId(req);
    if (sid) sessions.delete(sid);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.status(204).end();
  });

  app.get('/sso/analytics', (req, res) => {
    const email = sessions.get(sessionId(req));
    const user = email && users.find((u) => u.email === email);
    if (!user) return res.status(401).json({ status: 'error', message: 'You are not signed in.' });
    const token = jwt.sign(
      {
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        groups: user.groups,
        exp: Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS,
      },
      options.jwtSharedSecret,
      { algorithm: 'HS256' },
    );
    if (req.query.response === 'json') return res.json({ jwt: token });
    const target = new URL(`${analyticsUrl}/auth/sso`);
    target.searchParams.set('token', 'true');
    target.searchParams.set('jwt', token);
    if (typeof req.query.return_to === 'string') target.searchParams.set('return_to', req.query.return_to);
    return res.redirect(302, target.toString());
  });

  /** The cookie, or `Authorization: Bearer <token>` for a custom fetchRequestToken that sends headers. */
  function sessionId(req) {
    const header = req.headers.authorization;
    if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7);
    return req.cookies && req.cookies[SESSION_COOKIE];
  }

  return app;
}

/** Credentialed CORS for exactly one origin (the only setup the SDK supports with cookies across sites). */
function cors(frontendOrigin) {
  return (req, res, next) => {
    if (!frontendOrigin) return next();
    res.vary('Origin');
    if (req.headers.origin !== frontendOrigin) return next();
    res.setHeader('Access-Control-Allow-Origin', frontendOrigin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization');
      return res.status(204).end();
    }
    return next();
  };
}

function safeEqual(a, b) {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

module.exports = { createCustomerBackend, DEMO_USERS, SESSION_COOKIE };
