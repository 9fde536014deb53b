/**
 * The part of Metabase's type hierarchy the metadata editor needs: which semantic types, coercion strategies and
 * entity types a client may set, and "is this type a kind of that one" for the rules built on them.
 */
const PARENTS: Record<string, string[]> = {
  'type/PK': ['Relation/*'],
  'type/FK': ['Relation/*'],
  'type/Quantity': ['Semantic/*', 'type/Integer'],
  'type/Share': ['Semantic/*', 'type/Float'],
  'type/Percentage': ['Semantic/*', 'type/Decimal'],
  'type/Currency': ['Semantic/*', 'type/Decimal'],
  'type/Income': ['type/Currency'],
  'type/Discount': ['type/Currency'],
  'type/Price': ['type/Currency'],
  'type/GrossMargin': ['type/Currency'],
  'type/Cost': ['type/Currency'],
  'type/Location': ['Semantic/*'],
  'type/Coordinate': ['type/Location', 'type/Float'],
  'type/Latitude': ['type/Coordinate'],
  'type/Longitude': ['type/Coordinate'],
  'type/Score': ['Semantic/*', 'type/Number'],
  'type/Duration': ['Semantic/*', 'type/Number'],
  'type/URL': ['Semantic/*', 'type/Text'],
  'type/ImageURL': ['type/URL'],
  'type/AvatarURL': ['type/ImageURL'],
  'type/Email': ['Semantic/*', 'type/Text'],
  'type/Category': ['Semantic/*'],
  'type/Enum': ['Semantic/*'],
  'type/Address': ['type/Location'],
  'type/City': ['type/Address', 'type/Category', 'type/Text'],
  'type/State': ['type/Address', 'type/Category', 'type/Text'],
  'type/Country': ['type/Address', 'type/Category', 'type/Text'],
  'type/ZipCode': ['type/Address', 'type/Text'],
  'type/Name': ['type/Category', 'type/Text'],
  'type/Title': ['type/Category', 'type/Text'],
  'type/Description': ['Semantic/*', 'type/Text'],
  'type/Comment': ['Semantic/*', 'type/Text'],
  'type/CreationTemporal': ['Semantic/*'],
  'type/CreationTimestamp': ['type/CreationTemporal', 'type/DateTime'],
  'type/CreationTime': ['type/CreationTemporal', 'type/Time'],
  'type/CreationDate': ['type/CreationTemporal', 'type/Date'],
  'type/JoinTemporal': ['Semantic/*'],
  'type/JoinTimestamp': ['type/JoinTemporal', 'type/DateTime'],
  'type/JoinTime': ['type/JoinTemporal', 'type/Time'],
  'type/JoinDate': ['type/JoinTemporal', 'type/Date'],
  'type/CancelationTemporal': ['Semantic/*'],
  'type/CancelationTimestamp': ['type/CancelationTemporal', 'type/DateTime'],
  'type/CancelationTime': ['type/CancelationTemporal', 'type/Date'],
  'type/CancelationDate': ['type/CancelationTemporal', 'type/Date'],
  'type/DeletionTemporal': ['Semantic/*'],
  'type/DeletionTimestamp': ['type/DeletionTemporal', 'type/DateTime'],
  'type/DeletionTime': ['type/DeletionTemporal', 'type/Time'],
  'type/DeletionDate': ['type/DeletionTemporal', 'type/Date'],
  'type/UpdatedTemporal': ['Semantic/*'],
  'type/UpdatedTimestamp': ['type/UpdatedTemporal', 'type/DateTime'],
  'type/UpdatedTime': ['type/UpdatedTemporal', 'type/Time'],
  'type/UpdatedDate': ['type/UpdatedTemporal', 'type/Date'],
  'type/Birthdate': ['Semantic/*', 'type/Date'],
  'type/IPAddress': ['Semantic/*', 'type/TextLike'],
  'type/Structured': ['Semantic/*'],
  'type/SerializedJSON': ['type/Structured', 'type/Text'],
  'type/XML': ['type/Structured'],
  'type/JSON': ['type/Structured'],
  'type/User': ['Semantic/*'],
  'type/Author': ['type/User'],
  'type/Owner': ['type/User'],
  'type/Product': ['type/Category'],
  'type/Company': ['type/Category'],
  'type/Subscription': ['type/Category'],
  'type/Source': ['type/Category'],
  // Base (data) types, for the rules that ask "is it a number / a moment in time".
  'type/Number': ['type/*'],
  'type/Integer': ['type/Number'],
  'type/BigInteger': ['type/Integer'],
  'type/Float': ['type/Number'],
  'type/Decimal': ['type/Float'],
  'type/Text': ['type/*'],
  'type/UUID': ['type/Text'],
  'type/Temporal': ['type/*'],
  'type/Date': ['type/Temporal'],
  'type/Time': ['type/Temporal'],
  'type/TimeWithLocalTZ': ['type/Time'],
  'type/DateTime': ['type/Temporal'],
  'type/DateTimeWithLocalTZ': ['type/DateTime'],
  'type/Instant': ['type/DateTimeWithLocalTZ'],
  'type/Boolean': ['type/*'],
};

/** True when `type` is `ancestor` or derives from it. */
export function isa(type: string | null | undefined, ancestor: string): boolean {
  if (!type) return false;
  if (type === ancestor) return true;
  return (PARENTS[type] ?? []).some((p) => isa(p, ancestor));
}

/** What PUT /api/field/:id accepts as `semantic_type`: Metabase's semantic and relation types. */
export const SEMANTIC_TYPES: ReadonlySet<string> = new Set(
  Object.keys(PARENTS).filter((t) => isa(t, 'Semantic/*') || isa(t, 'Relation/*')),
);

export const ENTITY_TYPES: ReadonlySet<string> = new Set([
  'entity/GenericTable',
  'entity/UserTable',
  'entity/CompanyTable',
  'entity/TransactionTable',
  'entity/ProductTable',
  'entity/SubscriptionTable',
  'entity/EventTable',
  'entity/GoogleAnalyticsTable',
]);

interface Coercion {
  /** The base type a column must have (or derive from) for the strategy to apply. */
  from: string;
  effective: string;
}

/** Concrete strategies; the abstract parents are valid keywords but coerce nothing (as in Metabase). */
const COERCIONS: Record<string, Coercion | null> = {
  'Coercion/String->Temporal': null,
  'Coercion/ISO8601->Temporal': null,
  'Coercion/ISO8601->DateTime': { from: 'type/Text', effective: 'type/DateTime' },
  'Coercion/ISO8601->Time': { from: 'type/Text', effective: 'type/Time' },
  'Coercion/ISO8601->Date': { from: 'type/Text', effective: 'type/Date' },
  'Coercion/YYYYMMDDHHMMSSString->Temporal': { from: 'type/Text', effective: 'type/DateTime' },
  'Coercion/Bytes->Temporal': null,
  'Coercion/YYYYMMDDHHMMSSBytes->Temporal': { from: 'type/*', effective: 'type/DateTime' },
  'Coercion/Number->Temporal': null,
  'Coercion/UNIXTime->Temporal': null,
  'Coercion/UNIXSeconds->DateTime': { from: 'type/Number', effective: 'type/Instant' },
  'Coercion/UNIXMilliSeconds->DateTime': { from: 'type/Number', effective: 'type/Instant' },
  'Coercion/UNIXMicroSeconds->DateTime': { from: 'type/Number', effective: 'type/Instant' },
  'Coercion/UNIXNanoSeconds->DateTime': { from: 'type/Number', effective: 'type/Instant' },
};

export const COERCION_STRATEGIES: ReadonlySet<string> = new Set(Object.keys(COERCIONS));

/** The effective type a strategy gives a column of `baseType`, or null when it does not apply to it. */
export function coercedType(strategy: string, baseType: string): string | null {
  const c = COERCIONS[strategy];
  if (!c) return null;
  return c.from === 'type/*' || isa(baseType, c.from) ? c.effective : null;
}

/** Metabase accepts these as keywords or strings, with or without the leading colon. */
export function keywordName(v: unknown): unknown {
  return typeof v === 'string' && v.startsWith(':') ? v.slice(1) : v;
}
