import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../../common/auth/current-user';
import { sha256Hex } from '../../common/crypto/hashing';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { PermissionsGroup, ADMIN_GROUP_ID } from '../../schema/permissions-group.entity';
import { commonName } from '../../common/views/wire-values';
import { UsersService } from '../users';
import { ApiKey } from '../../schema/api-key.entity';
import { ApiKeyView, CreateApiKeyDto, toApiKeyView, UpdateApiKeyDto } from './api-keys.dto';
import { ApiKeysRepository } from './api-keys.repository';

/** `mb_` and the first four characters of the random part: enough to tell keys apart, useless to guess one. */
const PREFIX_LENGTH = 7;

/** Metabase's key format, so existing clients recognise it: `mb_` + base64 of 256 random bits. */
function generateKey(): string {
  return `mb_${randomBytes(32).toString('base64')}`;
}

const nameTaken = (name: string) => ValidationError.of('name', 'An API key with this name already exists.', name);

/**
 * API keys act as a user of type `api-key` whose group (besides All Users) is the key's permission set.
 * Only the SHA-256 of a key is stored; the key itself is shown once, when it is created or regenerated.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersService,
  ) {}

  async list(): Promise<ApiKeyView[]> {
    return this.views(await this.keys.list());
  }

  count(): Promise<number> {
    return this.keys.count();
  }

  async create(dto: CreateApiKeyDto, caller: AuthUser): Promise<ApiKeyView> {
    const key = generateKey();
    return this.guardName(dto.name, () =>
      this.keys.transaction(async (tx) => {
        await this.assertNameFree(dto.name, undefined, tx);
        const group = await this.requireGroup(dto.group_id, tx);
        const user = await this.users.create(
          {
            email: `api-key-user-${randomUUID()}@api-key.invalid`,
            first_name: dto.name,
            last_name: null,
            type: 'api-key',
            is_superuser: group.id === ADMIN_GROUP_ID,
            group_ids: [group.id],
          },
          tx,
        );
        const row = await this.keys.insert(
          { user_id: user.id, name: dto.name, ...hashed(key), creator_id: caller.id, updated_by_id: caller.id },
          tx,
        );
        return { ...(await this.views([row], tx))[0], unmasked_key: key };
      }),
    );
  }

  async update(id: number, dto: UpdateApiKeyDto, caller: AuthUser): Promise<ApiKeyView> {
    const name = dto.name ?? undefined;
    const groupId = dto.group_id ?? undefined;
    return this.guardName(name, () =>
      this.keys.transaction(async (tx) => {
        const row = await this.requireKey(id, tx);
        if (name !== undefined) await this.assertNameFree(name, id, tx);
        if (groupId !== undefined) {
          const group = await this.requireGroup(groupId, tx);
          await this.keys.moveUserToGroup(row.user_id, group.id, tx);
        }
        // The key's user carries the key's name, so audit trails and user lists show which key acted.
        if (name !== undefined) await this.keys.renameUser(row.user_id, name, tx);
        await this.keys.update(id, { ...(name === undefined ? {} : { name }), updated_by_id: caller.id }, tx);
        return (await this.views([(await this.keys.findById(id, tx))!], tx))[0];
      }),
    );
  }

  /** A new key for the same identity; the old key stops working with this commit. */
  async regenerate(id: number, caller: AuthUser): Promise<ApiKeyView> {
    const key = generateKey();
    return this.keys.transaction(async (tx) => {
      await this.requireKey(id, tx);
      await this.keys.update(id, { ...hashed(key), updated_by_id: caller.id }, tx);
      return { ...(await this.views([(await this.keys.findById(id, tx))!], tx))[0], unmasked_key: key };
    });
  }

  /** The user stays (deactivated) so what it did keeps an author; the key row goes, so the key stops working. */
  async delete(id: number): Promise<void> {
    await this.keys.transaction(async (tx) => {
      const row = await this.requireKey(id, tx);
      await this.keys.delete(id, tx);
      await this.keys.deactivateUser(row.user_id, tx);
    });
  }

  /** Groups and editors of all the keys in two queries, whatever their number. */
  private async views(rows: ApiKey[], tx?: EntityManager): Promise<ApiKeyView[]> {
    const groups = await this.keys.displayGroups(
      rows.map((k) => k.user_id),
      tx,
    );
    const editors = await this.keys.usersByIds(
      rows.map((k) => k.updated_by_id),
      tx,
    );
    return rows.map((k) => {
      const editor = editors.get(k.updated_by_id);
      return toApiKeyView(
        k,
        groups.get(k.user_id) ?? { id: 0, name: '' },
        editor ? { id: editor.id, common_name: commonName(editor) } : null,
      );
    });
  }

  private async requireKey(id: number, tx: EntityManager): Promise<ApiKey> {
    const row = await this.keys.findById(id, tx);
    if (!row) throw new NotFoundError();
    return row;
  }

  private async requireGroup(id: number, tx: EntityManager): Promise<PermissionsGroup> {
    const group = await this.keys.findGroup(id, tx);
    if (!group) throw ValidationError.of('group_id', 'value must be the id of an existing group.', id);
    return group;
  }

  private async assertNameFree(name: string, exceptId: number | undefined, tx: EntityManager): Promise<void> {
    const other = await this.keys.findByName(name, tx);
    if (other && other.id !== exceptId) throw nameTaken(name);
  }

  /** Two requests may pass the check at once; the unique index then refuses one, and it gets the same answer. */
  private async guardName<T>(name: string | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (name !== undefined && isUniqueViolation(e)) throw nameTaken(name);
      throw e;
    }
  }
}

function hashed(key: string): { key_hash: string; key_prefix: string } {
  return { key_hash: sha256Hex(key), key_prefix: key.slice(0, PREFIX_LENGTH) };
}
