import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CardsModule } from '../cards';
import { EventBus } from '../../common/events/event-bus';
import { CollectionsModule, subscribeItemSource } from '../collections';
import { CardTimelinesController } from './card-timelines.controller';
import { CollectionTimelinesController } from './collection-timelines.controller';
import { TimelineAccessService } from './timeline-access.service';
import { TimelineEvent } from '../../schema/timeline-event.entity';
import { TimelineItemsSource } from './timeline-items.source';
import { TimelineEventsController } from './timeline-events.controller';
import { TimelineEventsService } from './timeline-events.service';
import { Timeline } from '../../schema/timeline.entity';
import { TimelinesController } from './timelines.controller';
import { TimelinesRepository } from './timelines.repository';
import { TimelinesService } from './timelines.service';

/**
 * Timelines and their events, with the collection and card routes that list them (GET /api/collection/:id/timelines,
 * root/timelines, GET /api/card/:id/timelines). Access follows the timeline's collection (CollectionAccessService);
 * a card's timelines need read access to the card (CardAccessService). Timelines are items of their collection
 * (models=timeline) and are archived with it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Timeline, TimelineEvent]), CollectionsModule, CardsModule],
  controllers: [TimelinesController, TimelineEventsController, CollectionTimelinesController, CardTimelinesController],
  providers: [TimelinesRepository, TimelineAccessService, TimelinesService, TimelineEventsService, TimelineItemsSource],
})
export class TimelinesModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly items: TimelineItemsSource,
  ) {}

  onModuleInit(): void {
    subscribeItemSource(this.bus, this.items);
  }
}
