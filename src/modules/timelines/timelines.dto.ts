import { Transform } from 'class-transformer';
import { IsString } from 'class-validator';
import { MSG } from '../../common/validation/messages';
import { Bool, BoolString, MaxLen, NonBlankString, Nullable, OneOf, PositiveInt } from '../../common/validation/validators';
import { DateString } from './date-string';

/** Both releases' icons: v0.52 has `cake`, v0.44 `balloons`; the others are common to both. */
export const ICONS = ['star', 'cake', 'mail', 'warning', 'bell', 'cloud', 'balloons'] as const;
export type Icon = (typeof ICONS)[number];
export const DEFAULT_ICON: Icon = 'star';

/** POST /api/timeline/. */
export class CreateTimelineDto {
  @MaxLen(255)
  @NonBlankString()
  name: string;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @Bool()
  default?: boolean | null;

  @Nullable()
  @OneOf(ICONS)
  icon?: Icon | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;

  @Nullable()
  @Bool()
  archived?: boolean | null;
}

/** PUT /api/timeline/:id: every key optional; a key sent as null clears what may be cleared and leaves the rest. */
export class UpdateTimelineDto {
  @Nullable()
  @MaxLen(255)
  @NonBlankString()
  name?: string | null;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @Bool()
  default?: boolean | null;

  @Nullable()
  @OneOf(ICONS)
  icon?: Icon | null;

  @Nullable()
  @PositiveInt()
  collection_id?: number | null;

  @Nullable()
  @Bool()
  archived?: boolean | null;
}

/** GET /api/timeline/, GET /api/collection/:id/timelines and root/timelines. */
export class ListTimelinesQuery {
  @Nullable()
  @OneOf(['events'])
  include?: 'events' | null;

  @Nullable()
  @BoolString()
  archived?: boolean | null;
}

/** GET /api/timeline/:id. */
export class GetTimelineQuery extends ListTimelinesQuery {
  @Nullable()
  @DateString()
  start?: string | null;

  @Nullable()
  @DateString()
  end?: string | null;
}

/** GET /api/card/:id/timelines. */
export class CardTimelinesQuery {
  @Nullable()
  @OneOf(['events'])
  include?: 'events' | null;

  @Nullable()
  @DateString()
  start?: string | null;

  @Nullable()
  @DateString()
  end?: string | null;
}

/** POST /api/timeline-event/. */
export class CreateTimelineEventDto {
  @MaxLen(255)
  @NonBlankString()
  name: string;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @DateString()
  timestamp: string;

  @Nullable()
  @Bool()
  time_matters?: boolean | null;

  @MaxLen(255)
  @IsString({ message: MSG.string })
  timezone: string;

  @Nullable()
  @OneOf(ICONS)
  icon?: Icon | null;

  @PositiveInt()
  timeline_id: number;

  @Nullable()
  @Bool()
  archived?: boolean | null;
}

/** PUT /api/timeline-event/:id: every key optional; `timeline_id` moves the event to another timeline. */
export class UpdateTimelineEventDto {
  @Nullable()
  @MaxLen(255)
  @NonBlankString()
  name?: string | null;

  @Nullable()
  @IsString({ message: MSG.string })
  description?: string | null;

  @Nullable()
  @DateString()
  timestamp?: string | null;

  @Nullable()
  @Bool()
  time_matters?: boolean | null;

  @Nullable()
  @MaxLen(255)
  @IsString({ message: MSG.string })
  timezone?: string | null;

  @Nullable()
  @OneOf(ICONS)
  icon?: Icon | null;

  @Nullable()
  @PositiveInt()
  timeline_id?: number | null;

  @Nullable()
  @Bool()
  archived?: boolean | null;
}

/** GET /api/timeline-event/: the events of the timelines the caller may read, optionally of one timeline and in bounds. */
export class ListTimelineEventsQuery {
  @Nullable()
  @PositiveInt()
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value))
  timeline_id?: number | null;

  @Nullable()
  @BoolString()
  archived?: boolean | null;

  @Nullable()
  @DateString()
  start?: string | null;

  @Nullable()
  @DateString()
  end?: string | null;
}
