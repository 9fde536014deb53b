import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionRow } from './collections.repository';
import { parentId, topLevelId } from './location';

export const ROOT_NAME = 'Our analytics';

/** The fields every answer about one collection carries (Metabase's keys). */
export function collectionView(
  c: CollectionRow,
  extra: { canWrite: boolean; effectiveLocation: string; personalTops: ReadonlySet<number> },
) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    slug: c.slug,
    entity_id: c.entity_id,
    location: c.location,
    effective_location: extra.effectiveLocation,
    parent_id: parentId(extra.effectiveLocation),
    namespace: c.namespace,
    personal_owner_id: c.personal_owner_id,
    is_personal: extra.personalTops.has(topLevelId(c)),
    authority_level: c.authority_level,
    archived: c.archived,
    created_at: c.created_at,
    type: null,
    can_write: extra.canWrite,
  };
}

export type CollectionView = ReturnType<typeof collectionView>;

/** The virtual Root collection of a namespace. */
export function rootView(namespace: string | null, canWrite: boolean) {
  return {
    id: 'root' as const,
    name: ROOT_NAME,
    description: null,
    namespace,
    authority_level: null,
    is_personal: false,
    effective_ancestors: [],
    effective_location: null,
    parent_id: null,
    can_write: canWrite,
  };
}

/** One entry of `effective_ancestors`: the Root first, then each ancestor the caller may read. */
export function rootAncestor(canWrite: boolean) {
  return { 'metabase.models.collection.root/is-root?': true, authority_level: null, name: ROOT_NAME, id: 'root', can_write: canWrite };
}

export function ancestorView(c: CollectionRow, perm: CollectionPerm | undefined) {
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    location: c.location,
    authority_level: c.authority_level,
    personal_owner_id: c.personal_owner_id,
    type: null,
    can_write: perm === 'write',
  };
}
