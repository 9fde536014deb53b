import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { SecretBox } from '../../common/crypto/secret-box';
import { ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { NOT_AT_HAND } from '../../common/settings/settings-reader';
import { SettingDefinition } from './setting-definition';
import { EMBEDDING_TOGGLES, SETTINGS } from './setting-registry';
import { SettingsRepository } from './settings.repository';

/** overridden()'s answer when nothing overrides the stored value (null is a value a setting can have). */
const NOT_SET = Symbol('NOT_SET');

const LAST_UPDATED = 'settings-last-updated';
const MASK = '**********';
/** While the cluster bus delivers changes, the stamp is still checked this often, in case one was missed. */
const LIVE_MAX_AGE_MS = 60_000;

/**
 * A feature module's step when a setting is written through the API, after every value was validated and before any
 * is stored: it may refuse (by throwing) or prepare what the new value needs. `value` is null when reset to the default.
 */
export type SettingWriteHook = (value: unknown) => Promise<void>;

export interface SettingView {
  key: string;
  value: unknown;
  is_env_setting: boolean;
  env_name: string;
  description: string;
  default: unknown;
}

/**
 * Typed settings backed by the app DB. Each instance caches them and re-reads when `settings-last-updated`
 * moves, which every write bumps. A write also tells the other instances through the cluster bus, which drop
 * their copy at once (Postgres); while the bus is down (or on SQLite) they see the change after at most
 * SETTINGS_REFRESH_SECONDS of polling the stamp.
 */
@Injectable()
export class SettingsService {
  private readonly defs = new Map(SETTINGS.map((d) => [d.key, d]));
  private cache = new Map<string, string>();
  /** Built once per key: middleware reads settings on every request. */
  private readonly envNames = new Map<string, string>();
  private readonly writeHooks = new Map<string, SettingWriteHook>();
  private cacheStamp: string | null = null;
  private checkedAt = 0;
  private refreshing?: Promise<void>;
  /** Moves with each change announced by another instance: a refresh that began before it must not count. */
  private generation = 0;

  constructor(
    private readonly repo: SettingsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SecretBox,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
  ) {
    this.events.subscribe((event, origin) => {
      if (origin === 'remote' && (event.topic === 'settings' || event.topic === 'all')) this.markStale();
    });
  }

  /** The next read checks the stamp (and re-reads everything when it moved). */
  markStale(): void {
    this.generation++;
    this.checkedAt = 0;
  }

  /** Registers `hook` for writes of `key` through setMany (the module owning what the setting switches calls this). */
  onWrite(key: string, hook: SettingWriteHook): void {
    this.writeHooks.set(key, hook);
  }

  definition(key: string): SettingDefinition | undefined {
    return this.defs.get(key);
  }

  envName(def: SettingDefinition): string {
    let name = this.envNames.get(def.key);
    if (name === undefined)
      this.envNames.set(def.key, (name = def.envVar ?? `MB_${def.key.replace(/\?$/, '').replace(/-/g, '_').toUpperCase()}`));
    return name;
  }

  /** The value in force: environment, then stored, then default. */
  async get<T>(key: string): Promise<T> {
    const def = this.defs.get(key);
    if (!def) throw new Error(`Unknown setting ${key}`);
    if (def.getter) return (await def.getter((k) => this.get(k))) as T;
    const overridden = this.overridden(def);
    if (overridden !== NOT_SET) return overridden as T;
    await this.ensureFresh();
    return this.stored(def) as T;
  }

  /** get's answer without waiting, when it needs no read of the app DB; otherwise NOT_AT_HAND. */
  peek<T>(key: string): T | typeof NOT_AT_HAND {
    const def = this.defs.get(key);
    if (!def || def.getter) return NOT_AT_HAND;
    const overridden = this.overridden(def);
    if (overridden !== NOT_SET) return overridden as T;
    return this.isFresh() ? (this.stored(def) as T) : NOT_AT_HAND;
  }

  /** The value the environment (or the server's configured site URL) puts in force over the stored one, if any. */
  private overridden(def: SettingDefinition): unknown {
    const env = process.env[this.envName(def)];
    if (env !== undefined && env !== '') return this.parse(def, env);
    if (def.key === 'site-url' && this.config.siteUrl) return this.config.siteUrl;
    return NOT_SET;
  }

  private stored(def: SettingDefinition): unknown {
    const raw = this.cache.get(def.key);
    return raw === undefined ? (def.default ?? null) : this.parse(def, this.secrets.open(raw));
  }

  isEnvSet(def: SettingDefinition): boolean {
    const env = process.env[this.envName(def)];
    return env !== undefined && env !== '';
  }

  /** Sets several settings in one transaction; all are validated before any is written. */
  async setMany(values: Record<string, unknown>): Promise<void> {
    const writes: Array<[string, string | null]> = [];
    const hooked: Array<[SettingWriteHook, unknown]> = [];
    for (const [key, raw] of Object.entries(values)) {
      const def = this.defs.get(key);
      if (!def || def.visibility === 'internal' || def.getter) throw new NotFoundError();
      if (this.isEnvSet(def)) {
        throw new MessageError(`You cannot update \`${key}\` because its value is set by the environment variable ${this.envName(def)}.`);
      }
      if (def.sensitive && typeof raw === 'string' && raw.startsWith(MASK)) continue; // the masked value sent back: keep the secret
      const value = this.coerce(def, raw);
      const why =
        value === null
          ? undefined
          : await def.validateWith?.(value as never, (k) => (k in values ? Promise.resolve(values[k]) : this.get(k)));
      if (why) throw ValidationError.of(key, why, raw);
      writes.push([key, value === null ? null : this.serialize(def, value)]);
      const hook = this.writeHooks.get(key);
      if (hook) hooked.push([hook, value]);
    }
    for (const [hook, value] of hooked) await hook(value);
    for (const toggle of EMBEDDING_TOGGLES) {
      if (values[toggle] === true || values[toggle] === 'true') {
        const keyAfter = writes.find(([k]) => k === 'embedding-secret-key');
        if (!keyAfter && !(await this.get<string | null>('embedding-secret-key'))) {
          writes.push(['embedding-secret-key', this.secrets.seal(randomBytes(32).toString('hex'))]);
        }
        break;
      }
    }
    await this.write(writes);
  }

  /**
   * Stores an internal setting only if absent; true for the one caller (of all instances) that stored it. Used
   * as a once-only claim, e.g. to load the Sample Database exactly once.
   */
  claim(key: string, value: string): Promise<boolean> {
    return this.repo.claim(key, value);
  }

  /** Writes internal settings (setup token) without the API's checks. */
  async setInternal(key: string, value: string | null): Promise<void> {
    await this.write([[key, value]]);
  }

  /** What `user` may read of one setting; unknown or hidden keys are 404/403. */
  async readForApi(key: string, caller: { isSuperuser: boolean }): Promise<unknown> {
    const def = this.defs.get(key);
    if (!def || def.visibility === 'internal') throw new NotFoundError();
    if (def.visibility === 'admin' && !caller.isSuperuser) throw new ForbiddenError();
    return this.present(def, await this.get(key));
  }

  async list(): Promise<SettingView[]> {
    const out: SettingView[] = [];
    for (const def of SETTINGS) {
      if (def.visibility === 'internal') continue;
      out.push({
        key: def.key,
        value: this.present(def, await this.get(def.key)),
        is_env_setting: this.isEnvSet(def),
        env_name: this.envName(def),
        description: def.description,
        default: def.default ?? null,
      });
    }
    return out;
  }

  /** Settings a caller may read, as a map: public ones, plus authenticated/admin ones by the caller's rights. */
  async readable(caller?: { isSuperuser: boolean }): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const def of SETTINGS) {
      const allowed =
        def.visibility === 'public' ||
        (caller && def.visibility === 'authenticated') ||
        (caller?.isSuperuser && def.visibility === 'admin');
      if (allowed) out[def.key] = this.present(def, await this.get(def.key));
    }
    return out;
  }

  private present(def: SettingDefinition, value: unknown): unknown {
    if (!def.sensitive || value === null || value === undefined || value === '') return value;
    const s = String(value);
    return MASK + s.slice(-2);
  }

  private async write(writes: Array<[string, string | null]>): Promise<void> {
    if (writes.length === 0) return;
    const stamp = `${new Date().toISOString()}#${randomBytes(4).toString('hex')}`;
    await this.repo.write(writes, [LAST_UPDATED, stamp]);
    for (const [key, value] of writes) {
      if (value === null) this.cache.delete(key);
      else this.cache.set(key, value);
    }
    this.cacheStamp = stamp;
    await this.events.publish({ topic: 'settings' });
  }

  private isFresh(): boolean {
    const maxAgeMs = this.events.live
      ? Math.max(LIVE_MAX_AGE_MS, this.config.settingsRefreshSeconds * 1000)
      : this.config.settingsRefreshSeconds * 1000;
    return Date.now() - this.checkedAt < maxAgeMs;
  }

  private async ensureFresh(): Promise<void> {
    if (this.isFresh()) return;
    this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    await this.refreshing;
  }

  private async refresh(): Promise<void> {
    const generation = this.generation;
    const stamp = await this.repo.value(LAST_UPDATED);
    if (this.checkedAt === 0 || stamp !== this.cacheStamp) {
      const rows = await this.repo.all();
      this.cache = new Map(rows.filter((r) => r.value !== null).map((r) => [r.key, r.value as string]));
      this.cacheStamp = stamp;
    }
    if (generation === this.generation) this.checkedAt = Date.now();
  }

  /** Validates an API value; returns null to reset to the default. */
  private coerce(def: SettingDefinition, raw: unknown): unknown {
    if (raw === null || raw === undefined || raw === '') return null;
    const fail = (why: string): never => {
      throw ValidationError.of(def.key, why, raw);
    };
    let value: unknown = raw;
    switch (def.type) {
      case 'boolean':
        if (raw === 'true' || raw === 'false') value = raw === 'true';
        else if (typeof raw !== 'boolean') fail('value must be a boolean.');
        break;
      case 'integer':
        value = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
        if (!Number.isInteger(value)) fail('value must be an integer.');
        break;
      case 'enum':
        if (typeof raw !== 'string' || !def.options?.includes(raw.toLowerCase())) {
          fail(`value must be one of: ${def.options?.map((o) => `\`${o}\``).join(', ')}.`);
        }
        value = (raw as string).toLowerCase();
        break;
      case 'string':
        if (typeof raw !== 'string') fail('value must be a string.');
        break;
      case 'json':
        if (typeof raw === 'string') {
          try {
            value = JSON.parse(raw);
          } catch {
            fail('value must be valid JSON.');
          }
        }
        break;
    }
    const why = def.validate?.(value as never);
    if (why) fail(why);
    return value;
  }

  private serialize(def: SettingDefinition, value: unknown): string {
    const text = def.type === 'string' || def.type === 'enum' ? String(value) : JSON.stringify(value);
    return def.sensitive ? this.secrets.seal(text) : text;
  }

  private parse(def: SettingDefinition, text: string): unknown {
    switch (def.type) {
      case 'boolean':
        return text === 'true';
      case 'integer':
        return Number(text);
      case 'json':
        try {
          return JSON.parse(text);
        } catch {
          return def.default ?? null;
        }
      default:
        return text;
    }
  }
}
