import { Entity, PrimaryColumn } from 'typeorm';

/** A database a snippet has run on (see SnippetsService.recordUse). */
@Entity('native_query_snippet_database')
export class SnippetDatabase {
  @PrimaryColumn({ type: 'integer' })
  snippet_id: number;

  @PrimaryColumn({ type: 'integer' })
  database_id: number;
}
