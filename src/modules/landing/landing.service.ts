import { Injectable } from '@nestjs/common';
import { versionInfo } from '../../common/version';
import { UsersRepository } from '../users';

/** What `GET /` tells a person or a script arriving at the server's root. */
export interface LandingInfo {
  name: string;
  description: string;
  version: string;
  setup_done: boolean;
  /** What to do next while no user exists; null once setup is done. */
  next_step: { method: 'POST'; path: '/api/setup'; how: string } | null;
  links: { api_docs: string; openapi: string; health: string; session_properties: string };
}

const NEXT_STEP = {
  method: 'POST' as const,
  path: '/api/setup' as const,
  how:
    'Read "setup-token" from GET /api/session/properties, then POST /api/setup' +
    ' with {token, user: {email, password, first_name, last_name}} to create the first admin.',
};

@Injectable()
export class LandingService {
  constructor(private readonly users: UsersRepository) {}

  async info(): Promise<LandingInfo> {
    const setupDone = (await this.users.count()) > 0;
    return {
      name: 'analytics-server',
      description: 'Self-hosted business-analytics server with a Metabase-compatible REST API',
      version: versionInfo().tag,
      setup_done: setupDone,
      next_step: setupDone ? null : NEXT_STEP,
      links: {
        api_docs: '/api/docs',
        openapi: '/api/docs/openapi.json',
        health: '/api/health',
        session_properties: '/api/session/properties',
      },
    };
  }
}
