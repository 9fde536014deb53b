/** The choices of the data permissions grid, Metabase's labels; `granular` opens the database's tables. */
export const GRANULAR = 'granular';
export const ROLE_ENGINES = new Set(['postgres', 'mysql']);

export const VIEW_DB = (impersonation: boolean) => [
  { value: 'unrestricted', label: 'Can view' },
  ...(impersonation ? [{ value: 'impersonated', label: 'Impersonated' }] : []),
  { value: 'blocked', label: 'Blocked' },
  { value: GRANULAR, label: 'Granular' },
];
export const CREATE_DB = [
  { value: 'query-builder-and-native', label: 'Query builder and native' },
  { value: 'query-builder', label: 'Query builder only' },
  { value: 'no', label: 'No' },
  { value: GRANULAR, label: 'Granular' },
];
export const DOWNLOAD_DB = [
  { value: 'full', label: '1 million rows' },
  { value: 'limited', label: '10 thousand rows' },
  { value: 'none', label: 'No' },
  { value: GRANULAR, label: 'Granular' },
];

export const VIEW_TABLE = [
  { value: 'unrestricted', label: 'Can view' },
  { value: 'sandboxed', label: 'Row and column security' },
  { value: 'blocked', label: 'Blocked' },
];
export const CREATE_TABLE = [
  { value: 'query-builder', label: 'Query builder only' },
  { value: 'no', label: 'No' },
];
export const DOWNLOAD_TABLE = DOWNLOAD_DB.filter((o) => o.value !== GRANULAR);
