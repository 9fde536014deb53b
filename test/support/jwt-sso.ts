import jwt from 'jsonwebtoken';
import { auth } from './factories';
import type { TestApp } from './test-app';

const IDP = 'https://idp.example.com/sso/metabase';
/** Embedding clients sign in through JWT SSO and get the session key in the answer. */
const SDK = { 'X-Metabase-Client': 'embedding-sdk-react' };

/** Turns JWT SSO on (with the embedding SDK) under a fresh shared secret, and answers that secret. */
export async function enableJwtSso(t: TestApp, admin: string): Promise<string> {
  const secret = (await t.http().get('/api/util/random_token').set(auth(admin)).expect(200)).body.token as string;
  await t
    .http()
    .put('/api/setting')
    .set(auth(admin))
    .send({ 'jwt-identity-provider-uri': IDP, 'jwt-shared-secret': secret, 'jwt-enabled': true, 'enable-embedding-sdk': true })
    .expect(204);
  return secret;
}

/** A JWT sign-in as an embedding client sends it (HS256, ten minutes), not yet checked. */
export function jwtSignIn(t: TestApp, secret: string, claims: Record<string, unknown>) {
  const token = jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: 600 });
  return t.http().get('/auth/sso').set(SDK).query({ jwt: token });
}

/** Signs in by JWT and answers the session key. */
export async function jwtSession(t: TestApp, secret: string, claims: Record<string, unknown>): Promise<string> {
  return (await jwtSignIn(t, secret, claims).expect(200)).body.id as string;
}
