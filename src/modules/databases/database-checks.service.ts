import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/current-user';
import { SecretBox } from '../../common/crypto/secret-box';
import { NotFoundError } from '../../common/errors/api-errors';
import { ConnectionError, DetailsError, Engine, isWarehouseError } from '../../query-engine/execute/drivers';
import { DatabaseAccessService, openDetails, WarehouseConnections } from '../warehouse';
import { DatabasesRepository } from './databases.repository';

/** Why a connection attempt failed, as Metabase answers it: the message, and the detail at fault when known. */
export interface ConnectionFailure {
  message: string;
  errors?: Record<string, string>;
}

/** What a non-admin learns of a failure: the engine's message names hosts and files, which only admins see. */
const GENERIC_FAILURE = 'Unable to connect to database.';

/**
 * Tries connections for real, with a short-lived connection of its own (never a pooled one, which could still be
 * open from before the warehouse went away): the health check of a saved database, and the validation of details
 * before they are saved.
 */
@Injectable()
export class DatabaseChecksService {
  constructor(
    private readonly repo: DatabasesRepository,
    private readonly access: DatabaseAccessService,
    private readonly connections: WarehouseConnections,
    private readonly secrets: SecretBox,
  ) {}

  /** GET /api/database/:id/healthcheck: `{status: "ok"}` or `{status: "error", message, errors?}`. */
  async healthcheck(caller: AuthUser, id: number) {
    const db = await this.repo.findById(id);
    if (!db) throw new NotFoundError();
    await this.access.assertCanRead(caller, id);
    const failure = await this.tryConnect(db.engine, () => openDetails(db.details, this.secrets));
    if (!failure) return { status: 'ok' };
    return { status: 'error', ...(caller.isSuperuser ? failure : { message: GENERIC_FAILURE }) };
  }

  /** POST /api/database/validate: `{valid: true}`, or `{valid: false, message, errors?}` (the details are not echoed). */
  async validate(engine: Engine, details: Record<string, unknown>) {
    const failure = await this.tryConnect(engine, () => details);
    return failure ? { valid: false, ...failure } : { valid: true };
  }

  /** null when the details are valid and the engine accepts a connection; otherwise why not. */
  private async tryConnect(engine: Engine, details: () => Record<string, unknown>): Promise<ConnectionFailure | null> {
    try {
      const valid = this.connections.validate(engine, details());
      await this.connections.withTemporary(engine, valid, (d) => d.testConnection());
      return null;
    } catch (e) {
      if (e instanceof DetailsError) return { message: e.message, errors: { [e.field]: e.message } };
      if (e instanceof ConnectionError) return { message: e.message, ...(e.field ? { errors: { [e.field]: e.message } } : {}) };
      if (isWarehouseError(e)) return { message: e.message };
      throw e;
    }
  }
}
