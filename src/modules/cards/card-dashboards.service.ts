import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import { CollectionAccessService } from '../collections';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import { CardAccessService } from './card-access.service';
import { CardsRepository } from './cards.repository';
import { type DashboardShowing } from '../../schema/card.rows';

/** One dashboard of POST /api/cards/dashboards: named when the caller may read it, flagged when they may not change it. */
type PresentedDashboard =
  { id: number; name: string } | { error: 'unreadable-dashboard' } | { id: number; name: string; error: 'unwritable-dashboard' };

/**
 * Which dashboards show a card (Metabase's `in_dashboards`): as a dashcard or as a series of one, archived
 * dashboards included. A dashboard's collection decides what the caller may do with it.
 */
@Injectable()
export class CardDashboardsService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly access: CardAccessService,
    private readonly collections: CollectionAccessService,
  ) {}

  /**
   * GET /api/card/:id/dashboards: `[{id, name}]`. Metabase asks this before moving or archiving a card, so the caller
   * must read the card and be able to change every dashboard it is on (403 otherwise).
   */
  async ofCard(caller: AuthUser, id: number): Promise<Array<{ id: number; name: string }>> {
    await this.access.readable(caller, id);
    const dashboards = await this.cards.dashboardsShowing([id]);
    const perm = await this.permissions(caller, dashboards);
    if (dashboards.some((d) => perm(d) !== 'write')) throw new ForbiddenError();
    return dashboards.map((d) => ({ id: d.id, name: d.name }));
  }

  /**
   * POST /api/cards/dashboards: for each card id (in the order given), its dashboards. A dashboard the caller may not
   * read is only `{error: "unreadable-dashboard"}`; one they may read but not change carries `error: "unwritable-dashboard"`.
   */
  async ofCards(caller: AuthUser, cardIds: number[]) {
    const dashboards = await this.cards.dashboardsShowing([...new Set(cardIds)]);
    const perm = await this.permissions(caller, dashboards);
    const byCard = new Map<number, PresentedDashboard[]>();
    for (const d of dashboards) {
      const list = byCard.get(d.card_id) ?? byCard.set(d.card_id, []).get(d.card_id)!;
      const p = perm(d);
      list.push(
        p === null
          ? { error: 'unreadable-dashboard' }
          : p === 'read'
            ? { id: d.id, name: d.name, error: 'unwritable-dashboard' }
            : { id: d.id, name: d.name },
      );
    }
    return cardIds.map((cardId) => ({ card_id: cardId, dashboards: byCard.get(cardId) ?? [] }));
  }

  /** The caller's permission on each dashboard's collection, in a few queries however many dashboards. */
  private async permissions(caller: AuthUser, dashboards: DashboardShowing[]): Promise<(d: DashboardShowing) => CollectionPerm | null> {
    const places = dashboards
      .filter((d) => d.collection_id !== null)
      .map((d) => ({
        id: d.collection_id!,
        location: d.coll_location ?? '/',
        personal_owner_id: d.coll_personal_owner_id,
      }));
    const inCollections = await this.collections.forCollections(caller, places);
    const atRoot = dashboards.some((d) => d.collection_id === null) ? await this.collections.permission(caller, null) : null;
    return (d) => (d.collection_id === null ? atRoot : (inCollections.get(d.collection_id) ?? null));
  }
}
