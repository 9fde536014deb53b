import type { ComponentType } from 'react';

/** An area of the admin console: its side-navigation entry and its lazily loaded module (its own chunk). */
export interface AdminArea {
  /** The path under /admin, Metabase's (links to its admin pages land here). The area routes below it itself. */
  path: string;
  label: string;
  /** The area's module: a default export drawn at `/admin/<path>/*` (its sub-pages with <Routes> inside). */
  load: () => Promise<{ default: ComponentType }>;
}

/**
 * The admin console, in the order of its side navigation. A new area: a folder under admin/ with an `XArea.tsx`
 * default export, and a line here (web/README.md).
 */
export const ADMIN_AREAS: AdminArea[] = [
  { path: 'settings', label: 'Settings', load: () => import('./settings/SettingsArea') },
  { path: 'databases', label: 'Databases', load: () => import('./databases/DatabasesArea') },
  { path: 'datamodel', label: 'Table metadata', load: () => import('./datamodel/DatamodelArea') },
  { path: 'people', label: 'People', load: () => import('./people/PeopleArea') },
  { path: 'permissions', label: 'Permissions', load: () => import('./permissions/PermissionsArea') },
  { path: 'embedding', label: 'Embedding', load: () => import('./embedding/EmbeddingArea') },
  { path: 'settings/authentication/api-keys', label: 'API keys', load: () => import('./api-keys/ApiKeysArea') },
  { path: 'tools', label: 'Tools', load: () => import('./tools/ToolsArea') },
];

/** The area a path under /admin belongs to: the longest matching area path (API keys sit below Settings). */
export function areaOf(pathname: string): AdminArea | undefined {
  const rest = pathname.replace(/^\/admin\/?/, '');
  return ADMIN_AREAS.filter((a) => rest === a.path || rest.startsWith(`${a.path}/`)).sort((a, b) => b.path.length - a.path.length)[0];
}
