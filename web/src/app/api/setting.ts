import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { sessionKeys } from './session';

/** An entry of `GET /api/setting` (admins; the server's SettingView): sensitive values come back masked. */
export interface SettingView {
  key: string;
  value: unknown;
  /** Fixed by an environment variable (`env_name`): the API refuses to change it. */
  is_env_setting: boolean;
  env_name: string;
  description: string;
  default: unknown;
}

export type SettingsMap = Record<string, SettingView>;

export const settingKeys = {
  all: ['setting'] as const,
  list: () => ['setting', 'list'] as const,
};

/** Every setting an admin may read, by key; read again whenever a page using them opens (a form starts from them). */
export function useSettings() {
  return useQuery({
    queryKey: settingKeys.list(),
    refetchOnMount: 'always',
    queryFn: ({ signal }) =>
      api<SettingView[]>('GET', '/api/setting', { signal }).then((list) => Object.fromEntries(list.map((s) => [s.key, s])) as SettingsMap),
  });
}

/**
 * `PUT /api/setting` with `{key: value, ...}`: all validated before any is written; a refusal is a 400 naming the
 * setting (`errors.<key>`), which a settings form shows beside that field. Session properties read settings too.
 */
export function useUpdateSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, unknown>) => api<void>('PUT', '/api/setting', { body: values }),
    meta: { errors: 'caller' },
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: settingKeys.all }), client.invalidateQueries({ queryKey: sessionKeys.all })]),
  });
}

/** The masked form of a stored secret (`**********` and its last two characters): the API never shows it again. */
export const isMaskedSecret = (value: unknown) => typeof value === 'string' && value.startsWith('**********');
