import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { DatasetMetadataService } from '../dataset';
import { andFilters } from './card-builder';
import { buildXray, compareXrays, type Show, type XDashboard } from './dashboard-builder';
import { chooseTemplate, fieldKind, bindDimensions, applies } from './field-matching';
import { AutomagicRepository } from './automagic.repository';
import { encodeBase64Json, parseCell, parseId, type ComparisonEntity, type Entity } from './automagic-params';
import { fieldIdsIn, RelatedLinks } from './related-links';
import { RootResolver } from './root-resolver';
import { type Resolved } from './xray.types';
import { TEMPLATES } from './templates';
import type { Template } from './template.types';
import { dashboardView } from './xray-view';
import { describeFilter } from './filter-description';
import { isUnusable } from './xray-fields';

export interface XrayRequest {
  entity: Entity;
  idOrQuery: string;
  cell?: string;
  template?: { prefix: string; template: Template };
  compare?: { entity: ComparisonEntity; idOrQuery: string };
  show: Show;
}

/** The automatic dashboards: resolves the entity, picks the template, builds the cards and answers the dashboard. */
@Injectable()
export class AutomagicService {
  constructor(
    private readonly resolver: RootResolver,
    private readonly repo: AutomagicRepository,
    private readonly related: RelatedLinks,
    private readonly metadata: DatasetMetadataService,
  ) {}

  async xray(caller: AuthUser, req: XrayRequest) {
    const left = await this.resolve(caller, req.entity, req.idOrQuery, req.cell);
    const template = this.templateFor(left.resolved, req.template);
    let built = buildXray(left.resolved.root, template, { show: req.show, mayQuery: left.resolved.mayQuery });
    let paired = false;
    if (req.compare) {
      const right = await this.resolveComparison(caller, req.compare.entity, req.compare.idOrQuery);
      const rightBuilt = buildXray(right.root, template, { show: 'all', mayQuery: right.mayQuery });
      built = compareXrays(built, rightBuilt, left.displayName, right.root.sourceName);
      paired = true;
    }
    const related = await this.related.of(left.resolved, built.cards, left.cell);
    return this.view(caller, left.resolved, built, related, paired);
  }

  /** GET .../query_metadata: the databases, tables and fields the x-ray's cards use. */
  async queryMetadata(caller: AuthUser, entity: Entity, idOrQuery: string) {
    const { resolved } = await this.resolve(caller, entity, idOrQuery, undefined);
    const { root } = resolved;
    return this.metadata.queryMetadata(caller, {
      database: root.databaseId,
      type: 'query',
      query: { 'source-table': root.tableId ?? root.sourceTable },
    });
  }

  /** GET model_index/:id/primary_key/:pk: the model's x-ray narrowed to the one row with that primary key. */
  async modelIndexDetail(caller: AuthUser, indexId: number, pk: number, show: Show) {
    const index = await this.repo.modelIndex(indexId);
    if (!index) throw new NotFoundError();
    const resolved = await this.resolver.resolve(caller, 'model', String(index.model_id));
    const pkRef = JSON.parse(index.pk_ref) as unknown[];
    const name = (await this.repo.modelIndexValue(indexId, pk)) ?? `${resolved.root.sourceName} ${pk}`;
    const filter = ['=', pkRef, pk];
    const root = {
      ...resolved.root,
      filter: andFilters(resolved.root.filter, filter),
      sourceName: name,
      url: `/auto/dashboard/model_index/${indexId}/primary_key/${pk}`,
    };
    const r: Resolved = { ...resolved, root };
    const template = this.templateFor(r, undefined);
    const built = buildXray(root, template, { show, mayQuery: r.mayQuery });
    const related = await this.related.of(r, built.cards, null);
    return this.view(caller, r, { ...built, name: `A look at ${name}` }, related, false);
  }

  private view(caller: AuthUser, r: Resolved, built: XDashboard, related: Awaited<ReturnType<RelatedLinks['of']>>, paired: boolean) {
    return dashboardView(built, {
      creatorId: caller.id,
      parameterSource: r.root.sourceTable,
      related,
      moreUrl: built.more ? `${r.root.url}?show=all` : null,
      transientName: built.name,
      transientFilters: r.root.filter,
      paired,
    });
  }

  private async resolve(caller: AuthUser, entity: Entity, idOrQuery: string, cellParam: string | undefined) {
    const cell = cellParam === undefined ? null : parseCell(cellParam);
    const resolved = await this.resolver.resolve(caller, entity, idOrQuery);
    if (!cell) return { resolved, cell, displayName: resolved.root.sourceName };
    await this.assertFieldsQueryable(caller, resolved, cell);
    const qualifier = describeFilter(cell, resolved.root.fields);
    const root = {
      ...resolved.root,
      filter: andFilters(resolved.root.filter, cell),
      qualifier,
      url: `${resolved.root.url}/cell/${encodeBase64Json(cell)}`,
    };
    return { resolved: { ...resolved, root }, cell, displayName: `${resolved.root.sourceName} ${qualifier}` };
  }

  /**
   * The fields a cell filters on exist, are neither sensitive nor retired (else, as unknown fields, 404: the cell
   * would name them in every title), and are on tables the caller may query.
   */
  private async assertFieldsQueryable(caller: AuthUser, r: Resolved, cell: unknown[]) {
    const ids = [...new Set(fieldIdsIn(cell))];
    const fields = await this.repo.fieldsByIds(ids);
    if (fields.length !== ids.length || fields.some((f) => isUnusable(f.visibility_type))) throw new NotFoundError();
    const missing = fields.map((f) => f.table_id).filter((t) => !r.tables.has(t));
    if (missing.length) {
      const extra = await this.repo.tables(missing);
      for (const t of extra) r.tables.set(t.id, t);
      const mayQuery = await this.resolver.predicate(caller, r.tables);
      if (missing.some((t) => !mayQuery(t))) throw new ForbiddenError();
    } else if (fields.some((f) => !r.mayQuery(f.table_id))) throw new ForbiddenError();
  }

  private async resolveComparison(caller: AuthUser, entity: ComparisonEntity, idOrQuery: string): Promise<Resolved> {
    if (entity === 'table') return this.resolver.table(caller, parseId('comparison-entity-id-or-query', idOrQuery));
    if (entity === 'adhoc') return this.resolver.adhoc(caller, idOrQuery);
    return this.resolver.resolve(caller, 'segment', String(parseId('comparison-entity-id-or-query', idOrQuery)));
  }

  /** The template asked for (it must be of the entity's kind), else the best one for the entity. */
  private templateFor(r: Resolved, asked: XrayRequest['template']): Template {
    if (asked) {
      if (asked.prefix !== r.prefix) throw ValidationError.of('prefix', 'invalid value for prefix', asked.prefix);
      return asked.template;
    }
    const list = TEMPLATES[r.prefix];
    if (r.prefix === 'field' && r.root.field) {
      const kind = fieldKind(r.root.field);
      return list.find((t) => t.applies_to === kind) ?? list[0];
    }
    if (r.prefix === 'table' && r.root.tableId !== null) {
      const declared = r.tables.get(r.root.tableId)?.entity_type?.replace(/^entity\//, '');
      const t = list.find((x) => x.name === declared);
      if (t && applies(t, bindDimensions(t, r.root.fields))) return t;
    }
    return chooseTemplate(list, r.root.fields, r.root.field);
  }
}
