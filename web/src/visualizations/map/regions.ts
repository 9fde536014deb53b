import codes from 'i18n-iso-countries/codes.json';

/**
 * Which map region a row's value names. US states match by postal code ("TX") or name ("Texas"); countries by
 * ISO 3166-1 alpha-2 ("US"), alpha-3 ("USA") or the atlas's name. The atlases key their shapes by FIPS code
 * (us-atlas) and ISO numeric code (world-atlas). Pure.
 */

export type RegionMap = 'us_states' | 'world_countries';

const STATE_BY_FIPS: Record<string, string> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
  '60': 'AS',
  '66': 'GU',
  '69': 'MP',
  '72': 'PR',
  '78': 'VI',
};

const ISO_BY_NUMERIC = new Map((codes as string[][]).map(([a2, a3, num]) => [num, { a2, a3 }]));

/** The keys a region answers to (lower case), from its atlas id and name. */
export function regionKeys(map: RegionMap, id: string | number | undefined, name: string): string[] {
  const keys = [name.toLowerCase()];
  if (map === 'us_states') {
    const code = id === undefined ? undefined : STATE_BY_FIPS[String(id).padStart(2, '0')];
    if (code) keys.push(code.toLowerCase());
  } else {
    const iso = id === undefined ? undefined : ISO_BY_NUMERIC.get(String(id).padStart(3, '0'));
    if (iso) keys.push(iso.a2.toLowerCase(), iso.a3.toLowerCase());
  }
  return keys;
}

export function normalizeKey(value: unknown): string {
  return String(value ?? '')
    .trim()
    .toLowerCase();
}

/** The row values summed per region name, for the regions the values name (others are left out). */
export function valuesByRegion(
  regions: Array<{ name: string; keys: string[] }>,
  rows: unknown[][],
  dimension: number,
  metric: number,
): Map<string, { value: number; rowIndex: number }> {
  const byKey = new Map<string, string>();
  for (const r of regions) for (const k of r.keys) byKey.set(k, r.name);
  const out = new Map<string, { value: number; rowIndex: number }>();
  rows.forEach((row, i) => {
    const name = byKey.get(normalizeKey(row[dimension]));
    if (!name) return;
    const old = out.get(name);
    const v = Number(row[metric]) || 0;
    out.set(name, { value: (old?.value ?? 0) + v, rowIndex: old?.rowIndex ?? i });
  });
  return out;
}
