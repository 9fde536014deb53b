import { JwtService } from '@nestjs/jwt';
import type { Response } from 'supertest';
import { auth } from '../support/factories';
import type { TestApp } from '../support/test-app';

/** Helpers of the embed e2e tests (embed-*.e2e.spec.ts, preview-embed.e2e.spec.ts). */
export const SECRET = '0123456789abcdef'.repeat(4);

const jwt = new JwtService();

/** A token as a host signs it: HS256 with the key string itself. */
export function sign(payload: object, key = SECRET, extra: { algorithm?: 'HS256' | 'HS512'; expiresIn?: number } = {}): string {
  return jwt.sign(payload, {
    secret: key,
    algorithm: extra.algorithm ?? 'HS256',
    ...(extra.expiresIn !== undefined ? { expiresIn: extra.expiresIn } : {}),
  });
}

export const cardToken = (id: number, params: object = {}, extra: object = {}) => sign({ resource: { question: id }, params, ...extra });
export const dashToken = (id: number, params: object = {}, extra: object = {}) => sign({ resource: { dashboard: id }, params, ...extra });

/** Sets the key and turns static embedding on (or off). */
export async function setEmbedding(t: TestApp, admin: string, on = true, key: string | null = SECRET): Promise<void> {
  await t.http().put('/api/setting/embedding-secret-key').set(auth(admin)).send({ value: key }).expect(204);
  await t.http().put('/api/setting/enable-embedding-static').set(auth(admin)).send({ value: on }).expect(204);
}

/** PUT of a card's or dashboard's embedding fields as the admin. */
export async function embeddable(
  t: TestApp,
  admin: string,
  kind: 'card' | 'dashboard',
  id: number,
  params: Record<string, string>,
  enable = true,
): Promise<void> {
  const res = await t.http().put(`/api/${kind}/${id}`).set(auth(admin)).send({ enable_embedding: enable, embedding_params: params });
  if (res.status !== 200) throw new Error(`embedding fields of ${kind} ${id}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The embed surface's answer to every failure: 400 and the plain-text message. */
export function expectEmbed400(res: Response, message: string): void {
  expect([res.status, res.text]).toEqual([400, message]);
}

/** Nothing internal in an embed's answer: no SQL, database details, users or collection names. */
export function expectNoInternals(body: unknown, extra: string[] = []): void {
  const text = JSON.stringify(body);
  for (const bad of [
    '"native_form"',
    'SELECT ',
    '"database_id"',
    '"database"',
    '"details"',
    '"creator',
    '"collection',
    '"email"',
    '"last-edit-info"',
    '"made_public_by_id"',
    '"embedding_params"',
    ...extra,
  ]) {
    expect(text).not.toContain(bad);
  }
}
