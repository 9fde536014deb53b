import { Injectable } from '@nestjs/common';
import { parseJson } from '../../common/database/stored-json';
import { NotFoundError } from '../../common/errors/api-errors';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import type { UserView } from './user.view';

/** The older attribute endpoints under /api/mt/user (admins): what PUT /api/user/:id sets, and the keys in use. */
@Injectable()
export class UserAttributesService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
  ) {}

  /** The attribute names any user holds, from an admin or a provider, sorted: what a policy can refer to. */
  async knownKeys(): Promise<string[]> {
    const keys = new Set<string>();
    for (const text of await this.users.attributeMaps()) {
      const map = parseJson<unknown>(text, null);
      if (map && typeof map === 'object' && !Array.isArray(map)) Object.keys(map).forEach((k) => keys.add(k));
    }
    return [...keys].sort();
  }

  /** Replaces the admin's attributes (null clears them); the provider's are left to the next sign-in. */
  async setLoginAttributes(id: number, attributes: Record<string, unknown> | null): Promise<UserView> {
    await this.users.transaction(async (tx) => {
      const user = await this.users.findById(id, tx);
      if (!user || !user.is_active || user.type !== 'personal') throw new NotFoundError();
      await this.users.update(id, { login_attributes: attributes }, tx);
    });
    return this.usersService.view(await this.usersService.get(id));
  }
}
